//! `--model PATH`: a Hugging Face folder written here from the formats' specifications
//! (`config.json`, `model.safetensors.index.json`, safetensors files built by hand: an 8-byte
//! little-endian header length, the JSON header, zeroed data), a GGUF written by llama.cpp's own
//! writer (PyPI `gguf`, gguf-py), and hostile files. Figures are summed by hand.
//!
//! The GGUF test needs `python3` with `gguf` and `numpy` (`pip install gguf`); without them it
//! fails when `CI` is set and is skipped, with a note, otherwise.

mod common;

use std::path::Path;

use common::ramvram;
use ramvram::inputs::model_files::{ModelFormat, ModelProblem, read};

/// A safetensors file of `tensors` (name, dtype, shape, bytes per element) with zeroed data.
fn safetensors(path: &Path, tensors: &[(&str, &str, &[u64], u64)]) {
    let mut header = serde_json::Map::new();
    let mut offset = 0u64;
    for (name, dtype, shape, size) in tensors {
        let bytes = shape.iter().product::<u64>() * size;
        header.insert(
            (*name).to_string(),
            serde_json::json!({"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + bytes]}),
        );
        offset += bytes;
    }
    let json = serde_json::Value::Object(header).to_string();
    let mut out = (json.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(json.as_bytes());
    out.resize(out.len() + offset as usize, 0);
    std::fs::write(path, out).unwrap();
}

/// A two-layer Llama-shaped model: hidden 64, 4 heads of 16, 2 KV heads, MLP 128,
/// vocabulary 100, untied, in two shards.
fn tiny_llama(dir: &Path) {
    std::fs::write(
        dir.join("config.json"),
        r#"{"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "intermediate_size": 128, "vocab_size": 100, "tie_word_embeddings": false,
            "max_position_embeddings": 4096, "torch_dtype": "bfloat16"}"#,
    )
    .unwrap();
    let mut first: Vec<(String, &str, Vec<u64>, u64)> =
        vec![("model.embed_tokens.weight".into(), "BF16", vec![100, 64], 2)];
    let mut second: Vec<(String, &str, Vec<u64>, u64)> = vec![
        ("lm_head.weight".into(), "BF16", vec![100, 64], 2),
        ("model.norm.weight".into(), "BF16", vec![64], 2),
    ];
    for layer in 0..2 {
        let p = format!("model.layers.{layer}");
        let into = if layer == 0 { &mut first } else { &mut second };
        for (name, shape) in [
            ("self_attn.q_proj.weight", vec![64, 64]),
            ("self_attn.k_proj.weight", vec![32, 64]),
            ("self_attn.v_proj.weight", vec![32, 64]),
            ("self_attn.o_proj.weight", vec![64, 64]),
            ("mlp.gate_proj.weight", vec![128, 64]),
            ("mlp.up_proj.weight", vec![128, 64]),
            ("mlp.down_proj.weight", vec![64, 128]),
            ("input_layernorm.weight", vec![64]),
            ("post_attention_layernorm.weight", vec![64]),
        ] {
            into.push((format!("{p}.{name}"), "BF16", shape, 2));
        }
    }
    let mut weight_map = serde_json::Map::new();
    for (file, tensors) in [
        ("model-00001-of-00002.safetensors", &first),
        ("model-00002-of-00002.safetensors", &second),
    ] {
        let list: Vec<(&str, &str, &[u64], u64)> = tensors
            .iter()
            .map(|(n, d, s, b)| (n.as_str(), *d, s.as_slice(), *b))
            .collect();
        safetensors(&dir.join(file), &list);
        for (n, ..) in tensors {
            weight_map.insert(n.clone(), file.into());
        }
    }
    let index = serde_json::json!({"metadata": {"total_size": 173_696}, "weight_map": weight_map});
    std::fs::write(dir.join("model.safetensors.index.json"), index.to_string()).unwrap();
}

/// By hand: embedding and head 2 × 100 × 64 = 12,800; per layer q and o 2 × 64 × 64 = 8,192,
/// k and v 2 × 32 × 64 = 4,096, MLP 3 × 64 × 128 = 24,576, norms 2 × 64 = 128, so 36,992, times
/// 2 layers = 73,984; final norm 64. Total 86,848 parameters, 173,696 bytes in BF16.
const TINY_PARAMS: u64 = 86_848;

#[test]
fn a_hugging_face_folder_gives_its_exact_count_bytes_and_shape() {
    let dir = tempfile::tempdir().unwrap();
    tiny_llama(dir.path());
    let r = read(dir.path()).unwrap();
    assert_eq!(r.format, ModelFormat::HfFolder);
    let t = r.tensors.as_ref().unwrap();
    assert_eq!(t.params, TINY_PARAMS);
    assert_eq!(t.weight_bytes, 2 * TINY_PARAMS);
    assert_eq!(t.tensors, 3 + 2 * 9);
    assert_eq!(t.by_dtype, vec![("BF16".to_string(), 2 * TINY_PARAMS)]);
    assert_eq!(r.weight_files.len(), 2);
    // The config's shape sums to the same count as the headers.
    let shape = r.config.as_ref().unwrap().shape.as_ref().unwrap();
    assert_eq!(shape.params(), Some(TINY_PARAMS));
    // The largest tensors are the MLP's, 128 × 64 = 8,192 (the embedding is 100 × 64).
    assert_eq!(r.largest_tensor.as_ref().unwrap().elements, 8192);
    // KV cache per token: 2 layers × 2 KV heads × 16 × 2 (K and V) × 2 bytes = 256.
    let s = r.shape().unwrap();
    assert_eq!((s.layers, s.kv_heads, s.head_dim), (2, Some(2), Some(16)));

    // Through the command line: the figures and where they came from.
    let out = ramvram()
        .args(["advise", "--model"])
        .arg(dir.path())
        .args(["--inference", "vllm", "--gpus-per-node", "1"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("86,848 parameters"), "{stderr}");
    assert!(stderr.contains("config.json (llama)"), "{stderr}");
    assert!(stderr.contains("173,696 bytes of weights"), "{stderr}");
    assert!(stderr.contains("2 files (safetensors"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("256 bytes per token"), "{stdout}");
    // The loading phase takes the largest shard and the dtype on disk from the files.
    let largest_shard = [
        "model-00001-of-00002.safetensors",
        "model-00002-of-00002.safetensors",
    ]
    .iter()
    .map(|f| std::fs::metadata(dir.path().join(f)).unwrap().len())
    .max();
    let v = common::json_of(
        ramvram()
            .args(["advise", "--json", "--model"])
            .arg(dir.path())
            .args(["--inference", "transformers"]),
    );
    let plan = &v["inference_memory"]["plan"];
    assert_eq!(plan["checkpoint_shard_bytes"].as_u64(), largest_shard);
    assert_eq!(plan["checkpoint_dtype"], "bf16");
    // A typed figure replaces the one read, and says so.
    let out = ramvram()
        .args(["advise", "--model"])
        .arg(dir.path())
        .args(["--inference", "vllm", "--params", "1B"])
        .assert()
        .success()
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&out.stderr).contains("--params"));
}

/// A Hugging Face hub cache (`models--ORG--NAME/`): the files live in `blobs/` under their
/// hashes and the snapshot folder holds only relative links to them (`config.json ->
/// ../../blobs/<hash>`), as `huggingface_hub` writes it. The snapshot reads whole: the same
/// 86,848 parameters worked by hand at [`TINY_PARAMS`], both shards counted.
#[test]
fn a_hub_cache_snapshot_of_links_into_blobs_reads_whole() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let staged = tmp.path().join("staged");
    std::fs::create_dir(&staged).unwrap();
    tiny_llama(&staged);
    let repo = tmp.path().join("models--tiny--llama");
    let blobs = repo.join("blobs");
    let snapshot = repo
        .join("snapshots")
        .join("0123456789abcdef0123456789abcdef01234567");
    std::fs::create_dir_all(&blobs).unwrap();
    std::fs::create_dir_all(&snapshot).unwrap();
    // Writable only by its owner, as the hub library leaves it under the usual umask.
    std::fs::set_permissions(&snapshot, std::fs::Permissions::from_mode(0o755)).unwrap();
    let names = [
        "config.json",
        "model.safetensors.index.json",
        "model-00001-of-00002.safetensors",
        "model-00002-of-00002.safetensors",
    ];
    for (i, name) in names.iter().enumerate() {
        let blob = format!("{:064x}", 0xb10b_0000_u64 + i as u64);
        std::fs::rename(staged.join(name), blobs.join(&blob)).unwrap();
        std::os::unix::fs::symlink(format!("../../blobs/{blob}"), snapshot.join(name)).unwrap();
        assert!(
            std::fs::symlink_metadata(snapshot.join(name))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
    let r = read(&snapshot).unwrap();
    assert_eq!(r.format, ModelFormat::HfFolder);
    let t = r.tensors.as_ref().unwrap();
    assert_eq!(t.params, TINY_PARAMS);
    assert_eq!(t.weight_bytes, 2 * TINY_PARAMS);
    assert_eq!(t.tensors, 3 + 2 * 9);
    assert_eq!(r.weight_files.len(), 2);
    let out = ramvram()
        .args(["advise", "--model"])
        .arg(&snapshot)
        .args(["--inference", "vllm", "--gpus-per-node", "1"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("86,848 parameters"), "{stderr}");
    assert!(stderr.contains("config.json (llama)"), "{stderr}");
}

#[test]
fn a_single_safetensors_file_and_pickles() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("one.safetensors");
    safetensors(&p, &[("w", "F32", &[10, 3], 4), ("b", "F16", &[10], 2)]);
    let r = read(&p).unwrap();
    assert_eq!(r.format, ModelFormat::Safetensors);
    let t = r.tensors.unwrap();
    assert_eq!((t.params, t.weight_bytes), (40, 140));
    // A folder of pickles: its shard sizes, for torch.load's whole-file reads.
    let pk = dir.path().join("pk");
    std::fs::create_dir(&pk).unwrap();
    std::fs::write(pk.join("pytorch_model.bin"), [b'P', b'K', 3, 4, 0, 0, 0]).unwrap();
    let r = read(&pk).unwrap();
    assert_eq!(r.pickle_files.len(), 1);
    assert_eq!(r.pickle_files[0].bytes, 7);
}

/// A header value of the wrong type is named by its tensor and field with the expected type in
/// plain words, in the user's language; neither serde's type names nor the file's own string
/// appear (the file may be one the user can't read).
#[test]
fn a_wrong_type_in_a_header_names_the_field_not_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.safetensors");
    let json = r#"{"w":{"dtype":"F32","shape":"SECRET-abc","data_offsets":[0,4]}}"#;
    let mut bytes = (json.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(json.as_bytes());
    bytes.extend_from_slice(&[0; 4]);
    std::fs::write(&p, bytes).unwrap();
    for (lang, words) in [("en", "an array"), ("zh", "数组")] {
        let out = ramvram()
            .args(["--lang", lang, "advise", "--inference", "vllm", "--model"])
            .arg(&p)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("bad.safetensors"), "{stderr}");
        assert!(stderr.contains("w.shape"), "{stderr}");
        assert!(stderr.contains(words), "{stderr}");
        for leak in ["SECRET", "Vec<", "u64", "\"abc"] {
            assert!(!stderr.contains(leak), "{leak}: {stderr}");
        }
    }
}

#[test]
fn hostile_folders_are_named_errors() {
    let dir = tempfile::tempdir().unwrap();
    tiny_llama(dir.path());
    // A shard list pointing outside the folder.
    let index = dir.path().join("model.safetensors.index.json");
    std::fs::write(&index, r#"{"weight_map": {"a": "../../etc/passwd"}}"#).unwrap();
    let e = read(dir.path()).unwrap_err();
    assert_eq!(e.file, index);
    assert!(matches!(e.problem, ModelProblem::OutsideFolder(_)));
    // A 1 GiB config.json (sparse): refused by its size, before a byte is read.
    let config = dir.path().join("config.json");
    std::fs::File::create(&config)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let e = read(dir.path()).unwrap_err();
    assert_eq!(e.file, config);
    assert!(matches!(e.problem, ModelProblem::Io(_)), "{:?}", e.problem);
    // Nested 100,000 deep.
    std::fs::write(
        &config,
        format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
    )
    .unwrap();
    assert!(matches!(
        read(dir.path()).unwrap_err().problem,
        ModelProblem::Json { .. }
    ));
    // In Chinese, on the command line, naming the file.
    let out = ramvram()
        .args(["--lang", "zh", "advise", "--inference", "vllm", "--model"])
        .arg(dir.path())
        .assert()
        .failure()
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("config.json"), "{stderr}");
    assert!(stderr.contains("JSON"), "{stderr}");
    // An empty folder.
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(
        read(empty.path()).unwrap_err().problem,
        ModelProblem::NoModel
    );
}

fn gguf_header(tensors: u64, kvs: u64) -> Vec<u8> {
    let mut v = b"GGUF".to_vec();
    v.extend_from_slice(&3u32.to_le_bytes());
    v.extend_from_slice(&tensors.to_le_bytes());
    v.extend_from_slice(&kvs.to_le_bytes());
    v
}

#[test]
fn hostile_gguf_headers_stop_at_their_caps() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.gguf");
    // 10^7 tensors claimed.
    std::fs::write(&p, gguf_header(10_000_000, 0)).unwrap();
    let e = read(&p).unwrap_err();
    assert!(
        matches!(
            e.problem,
            ModelProblem::TooLarge {
                value: 10_000_000,
                ..
            }
        ),
        "{:?}",
        e.problem
    );
    // A 4 GB string as the first key.
    let mut v = gguf_header(0, 1);
    v.extend_from_slice(&(4u64 << 30).to_le_bytes());
    v.extend_from_slice(b"general");
    std::fs::write(&p, v).unwrap();
    assert!(matches!(
        read(&p).unwrap_err().problem,
        ModelProblem::TooLarge { value, .. } if value == 4 << 30
    ));
    // Not a GGUF at all.
    std::fs::write(&p, b"not a gguf file").unwrap();
    assert_eq!(read(&p).unwrap_err().problem, ModelProblem::NotGguf);
}

/// llama.cpp's gguf-py writes three tensors: an F32 token embedding (100 × 64), an F16 query
/// projection in layer 0 (64 × 64) and a Q8_0 one in layer 1 (64 × 64, blocks of 32 values in
/// 34 bytes).
const GGUF_SCRIPT: &str = r#"
import sys
import numpy as np
import gguf
w = gguf.GGUFWriter(sys.argv[1], "llama")
w.add_block_count(2)
w.add_context_length(4096)
w.add_embedding_length(64)
w.add_head_count(4)
w.add_head_count_kv(2)
w.add_feed_forward_length(128)
w.add_tensor("token_embd.weight", np.zeros((100, 64), dtype=np.float32))
w.add_tensor("blk.0.attn_q.weight", np.zeros((64, 64), dtype=np.float16))
q = gguf.quants.quantize(np.zeros((64, 64), dtype=np.float32), gguf.GGMLQuantizationType.Q8_0)
w.add_tensor("blk.1.attn_q.weight", q, raw_dtype=gguf.GGMLQuantizationType.Q8_0)
w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
"#;

#[test]
fn a_gguf_written_by_gguf_py_gives_its_exact_bytes_per_layer() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("tiny.gguf");
    let ran = std::process::Command::new("python3")
        .args(["-c", GGUF_SCRIPT])
        .arg(&p)
        .output();
    let ok = ran.as_ref().is_ok_and(|o| o.status.success());
    if !ok {
        let why = match &ran {
            Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
            Err(e) => e.to_string(),
        };
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
        assert!(!ci, "gguf-py is needed in CI (pip install gguf): {why}");
        eprintln!("skipped: python3 with gguf (pip install gguf) is not available: {why}");
        return;
    }
    let r = read(&p).unwrap();
    assert_eq!(r.format, ModelFormat::Gguf);
    let t = r.tensors.as_ref().unwrap();
    // By hand: 6,400 + 4,096 + 4,096 elements; 6,400 × 4 + 4,096 × 2 + 4,096 / 32 × 34 bytes.
    assert_eq!(t.params, 14_592);
    assert_eq!(t.weight_bytes, 25_600 + 8_192 + 4_352);
    let g = r.gguf.as_ref().unwrap();
    assert_eq!(g.architecture.as_deref(), Some("llama"));
    assert_eq!(
        (
            g.block_count,
            g.embedding_length,
            g.head_count,
            g.head_count_kv,
            g.context_length
        ),
        (Some(2), Some(64), Some(4), Some(2), Some(4096))
    );
    assert_eq!(g.bytes_per_layer, vec![8_192, 4_352]);
    assert_eq!(g.other_bytes, 25_600);
    let names: Vec<&str> = t.by_dtype.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["F32", "F16", "Q8_0"]);
}

/// The issue's check: Qwen2.5-7B-Instruct by its Hub id gives 7.6 B parameters and 57,344 KV
/// bytes per token (28 layers × 4 KV heads × 128 × 2 × 2 bytes), with its source; DeepSeek-V3's
/// latent cache is 61 layers × (512 + 64) × 2 bytes = 70,272.
#[test]
fn catalogue_names_give_the_issue_figures() {
    let out = ramvram()
        .args([
            "advise",
            "--model",
            "Qwen/Qwen2.5-7B-Instruct",
            "--inference",
            "vllm",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(stdout.contains("7.62B parameters"), "{stdout}");
    assert!(stdout.contains("57,344 bytes per token"), "{stdout}");
    assert!(
        stderr.contains("from the catalogue (Qwen/Qwen2.5-7B-Instruct; huggingface.co/Qwen/Qwen2.5-7B-Instruct/config.json"),
        "{stderr}"
    );
    let out = ramvram()
        .args(["advise", "--model", "deepseek-v3", "--inference", "vllm"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("70,272 bytes per token"), "{stdout}");
    assert!(stdout.contains("kv_lora_rank"), "{stdout}");
    // A near miss is refused with suggestions.
    ramvram()
        .args([
            "advise",
            "--model",
            "Qwen2.5-7B-Instrct",
            "--inference",
            "vllm",
        ])
        .assert()
        .failure()
        .stderr(predicates::str::contains("did you mean: qwen2.5-7b"));
}

/// llama.cpp `-ot exps=CPU` on Mixtral 8x7B (bf16): by hand, the routed experts are 8 experts
/// × 3 × 4,096 × 14,336 × 32 layers = 45,097,156,608 parameters, 90,194,313,216 bytes kept in
/// RAM; the GPU holds the other 1,605,636,096 parameters (3,211,272,192 bytes), the KV cache
/// (32 layers × 8 KV heads × 128 × 2 × 2 bytes × 4,096 tokens = 536,870,912) and llama.cpp's
/// 512 MiB compute buffer.
#[test]
fn experts_on_cpu_keep_every_routed_expert_in_host_ram() {
    let out = ramvram()
        .args([
            "advise",
            "--json",
            "--model",
            "mixtral-8x7b",
            "--inference",
            "llama.cpp",
        ])
        .arg("--experts-on-cpu")
        .assert()
        .success()
        .get_output()
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["inference_memory"];
    assert_eq!(m["plan"]["expert_params"].as_u64(), Some(45_097_156_608));
    assert_eq!(m["weights_on_cpu_bytes"].as_u64(), Some(90_194_313_216));
    assert_eq!(
        m["gpu_peak_bytes_per_gpu"].as_u64(),
        Some(3_211_272_192 + 536_870_912 + (512 << 20))
    );
    // A dense model has no experts to keep on the CPU.
    ramvram()
        .args([
            "advise",
            "--model",
            "qwen2.5-7b",
            "--inference",
            "llama.cpp",
            "--experts-on-cpu",
        ])
        .assert()
        .failure();
    // And the flag is llama.cpp's.
    ramvram()
        .args([
            "advise",
            "--model",
            "mixtral-8x7b",
            "--inference",
            "vllm",
            "--experts-on-cpu",
        ])
        .assert()
        .failure();
}

/// Issue 37: an index naming 10,000 files that are one file (hard links: one device and inode)
/// reads its header once and counts its tensors once. Before, each name was read again (with a
/// 6 MB header, 10,000 times: hours) and its parameters added 10,000 times.
#[test]
fn an_index_naming_one_file_ten_thousand_times_reads_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // One tensor of 3 × 4 BF16: 12 parameters, 24 bytes.
    safetensors(&d.join("one.safetensors"), &[("w", "BF16", &[3, 4], 2)]);
    let mut weight_map = serde_json::Map::new();
    for i in 0..9_999 {
        let name = format!("shard-{i:05}.safetensors");
        std::fs::hard_link(d.join("one.safetensors"), d.join(&name)).unwrap();
        weight_map.insert(format!("t{i}"), name.into());
    }
    // And the file's own name 10,000 times over (10,000 names in all, the most an index may
    // list).
    for i in 0..10_000 {
        weight_map.insert(format!("u{i}"), "one.safetensors".into());
    }
    let index = serde_json::json!({ "weight_map": weight_map });
    std::fs::write(d.join("model.safetensors.index.json"), index.to_string()).unwrap();
    let (r, work) = ramvram::inputs::model_files::read_with_work(d).unwrap();
    let t = r.tensors.as_ref().unwrap();
    assert_eq!((t.params, t.weight_bytes, t.tensors), (12, 24, 1));
    assert_eq!(r.weight_files.len(), 1);
    assert_eq!(work.headers_read, 1, "{work:?}");
    // 10,000 shard names opened (looked up, fstat'd), 9,999 of them skipped as the same file,
    // plus the index.
    assert_eq!(work.duplicates, 9_999, "{work:?}");
    assert_eq!(work.files_opened, 10_001, "{work:?}");
}

/// Issue 37: `config.json`, the index and every shard are looked up by name, however many
/// other files the folder holds (before, the first 40,000 entries in directory order were
/// listed: with 60,000 files made after them, `config.json` was "absent").
#[test]
fn sixty_thousand_other_files_hide_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    tiny_llama(d);
    std::fs::write(d.join("pytorch_model.bin"), [0u8; 7]).unwrap();
    for i in 0..60_000 {
        std::fs::File::create(d.join(format!("junk-{i:05}.txt"))).unwrap();
    }
    let (r, work) = ramvram::inputs::model_files::read_with_work(d).unwrap();
    assert!(r.config.is_some());
    assert_eq!(r.tensors.as_ref().unwrap().params, TINY_PARAMS);
    assert_eq!(r.weight_files.len(), 2);
    assert_eq!(r.pickle_files.len(), 1);
    assert_eq!(r.listing_cut, None);
    // Every entry looked at once: 60,000 + config, index, 2 shards and the pickle.
    assert_eq!(work.listed, 60_005, "{work:?}");
    // config.json, the index, 2 shards, the pickle: each opened once.
    assert_eq!(work.files_opened, 5, "{work:?}");
}

/// Issue 37: values read from model files that the planners can't take are refused naming the
/// file and its field, in the user's language, never a flag the user didn't give (before:
/// "--params: at most 100 trillion", "--params: …0", "--layers").
#[test]
fn out_of_range_values_name_the_file_and_field_not_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A config whose shape sums past 100 trillion: 2^24 layers of hidden size 2^24 hold
    // 2^24 × 12 × 2^48 ≫ 10^14 parameters.
    std::fs::write(
        d.join("config.json"),
        r#"{"model_type": "llama", "hidden_size": 16777216, "num_hidden_layers": 16777216,
            "num_attention_heads": 16, "vocab_size": 1000}"#,
    )
    .unwrap();
    // A safetensors file whose only tensor has no elements: 0 parameters.
    let other = tempfile::tempdir().unwrap();
    let empty = other.path().join("empty.safetensors");
    safetensors(&empty, &[("w", "F32", &[0], 4)]);
    // A GGUF header with 0 layers: llama.block_count = 0.
    let gguf = other.path().join("zero.gguf");
    let mut v = gguf_header(0, 2);
    for (key, value) in [
        ("general.architecture", None),
        ("llama.block_count", Some(0u32)),
    ] {
        v.extend_from_slice(&(key.len() as u64).to_le_bytes());
        v.extend_from_slice(key.as_bytes());
        match value {
            None => {
                v.extend_from_slice(&8u32.to_le_bytes());
                v.extend_from_slice(&5u64.to_le_bytes());
                v.extend_from_slice(b"llama");
            }
            Some(n) => {
                v.extend_from_slice(&4u32.to_le_bytes());
                v.extend_from_slice(&n.to_le_bytes());
            }
        }
    }
    std::fs::write(&gguf, v).unwrap();
    let cases: [(&Path, &str, &str, &str); 3] = [
        (d, "config.json", "num_hidden_layers", "100,000,000,000,000"),
        (&empty, "empty.safetensors", "shape", " 0 "),
        (&gguf, "zero.gguf", "llama.block_count", "1–16,777,216"),
    ];
    for (path, file, field, figure) in cases {
        for lang in ["en", "zh"] {
            let out = ramvram()
                .args(["--lang", lang, "advise", "--inference", "vllm", "--model"])
                .arg(path)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{err}");
            assert!(!err.contains("--params"), "{err}");
            assert!(!err.contains("--layers"), "{err}");
            assert!(err.contains(file), "{err}");
            assert!(err.contains(field), "{err}");
            if lang == "en" {
                assert!(err.contains(figure), "{figure}: {err}");
            } else {
                assert!(err.contains("ramvram 接受"), "{err}");
            }
        }
    }
}

/// A file that isn't safetensors, named directly: refused as such, and its first 8 bytes (which
/// the reader takes for a header length) never shown as a number. "secretXY" read as a
/// little-endian u64 is worked out here, independently of the reader.
#[test]
fn a_file_that_is_not_safetensors_shows_none_of_its_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("model.safetensors");
    std::fs::write(&file, b"secretXYZ and more text that is not a model").unwrap();
    let first8 = u64::from_le_bytes(*b"secretXY");
    assert_eq!(first8, 6_438_023_646_385_759_603);
    assert_eq!(
        read(&file).unwrap_err().problem,
        ModelProblem::NotSafetensors
    );
    for (lang, words) in [
        ("en", "isn't a safetensors file"),
        ("zh", "不是 safetensors 文件"),
    ] {
        let out = ramvram()
            .args(["--lang", lang, "advise", "--inference", "vllm", "--model"])
            .arg(&file)
            .assert()
            .failure()
            .get_output()
            .clone();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(words), "{text}");
        let digits: String = text.chars().filter(|c| c.is_ascii_digit()).collect();
        assert!(!digits.contains("6438023646385759603"), "{text}");
    }
}
