//! Issue 25's input kinds on disk: model headers (safetensors, GGUF, `config.json`, a
//! Hugging Face folder), dataset folders (file names and first bytes), and Slurm inventories
//! with big GRES around the per-node and per-inventory GPU caps.
//!
//! A file input is described as JSON text, `[[NAME, [BYTE, …]], …]`, so that a failure prints
//! an input that can be written back to disk by hand; each run writes it into a fresh
//! temporary folder and reads it as `--model` or `--dataset` would.

use super::*;

/// The files of one input: relative names and their bytes.
type Files = Vec<(String, Vec<u8>)>;

fn described(files: &Files) -> String {
    serde_json::to_string(files).unwrap()
}

/// Damages bytes: flips, cuts, repeats or inserts extreme integers.
fn damage_bytes(bytes: &mut Vec<u8>, rng: &mut TestRng) {
    for _ in 0..(rng.next_u64() % 4) {
        if bytes.is_empty() {
            return;
        }
        let at = (rng.next_u64() % bytes.len() as u64) as usize;
        match rng.next_u64() % 5 {
            0 => bytes[at] ^= 1 << (rng.next_u64() % 8),
            1 => bytes.truncate(at),
            2 => {
                let tail = bytes[at..].to_vec();
                bytes.extend_from_slice(&tail[..tail.len().min(64)]);
            }
            3 => {
                let n = pick(rng, &[u64::MAX, u64::MAX / 2, 1 << 40, 0, 1 << 20, 65_536]);
                let end = (at + 8).min(bytes.len());
                bytes.splice(at..end, n.to_le_bytes());
            }
            _ => bytes[at] = 0xff,
        }
    }
}

fn safetensors(rng: &mut TestRng) -> Vec<u8> {
    let dtypes = ["BF16", "F16", "F32", "I8", "F8_E4M3", "U8", "F64", "X9", ""];
    let mut header = serde_json::Map::new();
    header.insert("__metadata__".into(), json!({"format": "pt"}));
    let mut offset = 0u64;
    for i in 0..(rng.next_u64() % 6) {
        let dtype = pick(rng, &dtypes);
        let rows = pick(rng, &[1u64, 2, 4, 4096, 0, 1 << 40]);
        let cols = pick(rng, &[1u64, 3, 8, 11008, u64::MAX]);
        let len = rows.saturating_mul(cols).saturating_mul(2).min(64);
        let mut t = json!({"dtype": dtype, "shape": [rows, cols],
                           "data_offsets": [offset, offset + len]});
        if chance(rng, 4) {
            mutate(&mut t, rng, 200);
        }
        header.insert(format!("model.layers.{i}.mlp.up_proj.weight"), t);
        offset += len;
    }
    let json = serde_json::to_vec(&Value::Object(header)).unwrap();
    let mut out = (json.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&json);
    out.resize(out.len() + offset as usize, 0);
    if chance(rng, 4) {
        damage_bytes(&mut out, rng);
    }
    out
}

fn gguf_string(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// A GGUF header by the spec (version 3): metadata of a llama-shaped model, an array of
/// tokens, and tensor infos of known and unknown types.
fn gguf(rng: &mut TestRng) -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend_from_slice(&pick(rng, &[3u32, 3, 2, 1, 4]).to_le_bytes());
    let tensors = rng.next_u64() % 5;
    out.extend_from_slice(&tensors.to_le_bytes());
    let ints: [(&str, u64); 5] = [
        ("llama.block_count", pick(rng, &[32, 0, 1 << 40, 80])),
        ("llama.embedding_length", pick(rng, &[4096, 0, u64::MAX])),
        ("llama.attention.head_count", pick(rng, &[32, 0, 7])),
        ("llama.attention.head_count_kv", pick(rng, &[8, 0, 33])),
        ("llama.context_length", pick(rng, &[8192, 1 << 40])),
    ];
    let tokens = rng.next_u64() % 50;
    out.extend_from_slice(&(ints.len() as u64 + 2).to_le_bytes());
    gguf_string(&mut out, "general.architecture");
    out.extend_from_slice(&8u32.to_le_bytes());
    gguf_string(&mut out, pick(rng, &["llama", "qwen2", "", "\u{202e}x"]));
    for (k, v) in ints {
        gguf_string(&mut out, k);
        if chance(rng, 2) {
            out.extend_from_slice(&10u32.to_le_bytes());
            out.extend_from_slice(&v.to_le_bytes());
        } else {
            out.extend_from_slice(&4u32.to_le_bytes());
            out.extend_from_slice(&(v as u32).to_le_bytes());
        }
    }
    gguf_string(&mut out, "tokenizer.ggml.tokens");
    out.extend_from_slice(&9u32.to_le_bytes());
    out.extend_from_slice(&8u32.to_le_bytes());
    out.extend_from_slice(&tokens.to_le_bytes());
    for t in 0..tokens {
        gguf_string(&mut out, &format!("tok{t}"));
    }
    for i in 0..tensors {
        gguf_string(&mut out, &format!("blk.{i}.ffn_up.weight"));
        let dims = pick(rng, &[1u32, 2, 2, 5]);
        out.extend_from_slice(&dims.to_le_bytes());
        for _ in 0..dims {
            out.extend_from_slice(&pick(rng, &[4096u64, 14336, 1, 0, u64::MAX]).to_le_bytes());
        }
        out.extend_from_slice(&pick(rng, &[0u32, 1, 8, 12, 30, 99]).to_le_bytes());
        out.extend_from_slice(&(i * 4096).to_le_bytes());
    }
    if chance(rng, 3) {
        damage_bytes(&mut out, rng);
    }
    out
}

fn config_json(rng: &mut TestRng) -> Vec<u8> {
    let mut c = json!({
        "architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
        "max_position_embeddings": 131072, "torch_dtype": "bfloat16",
        "tie_word_embeddings": false
    });
    if chance(rng, 2) {
        c["model_type"] = json!(pick(rng, &["mixtral", "qwen2_moe", "gpt2", "t5", "x"]));
        c["num_local_experts"] = json!(8);
        c["num_experts_per_tok"] = json!(2);
    }
    mutate(&mut c, rng, 80);
    let text = serde_json::to_string(&c).unwrap();
    if chance(rng, 8) {
        damage(text, rng).into_bytes()
    } else {
        text.into_bytes()
    }
}

/// A model input: a `.safetensors` file, a `.gguf` file, or a Hugging Face folder
/// (`config.json`, shards and sometimes an index).
pub(crate) fn model_files() -> impl Strategy<Value = String> {
    any::<bool>().prop_perturb(|_, mut rng| {
        let files: Files = match rng.next_u64() % 3 {
            0 => vec![("model.safetensors".into(), safetensors(&mut rng))],
            1 => vec![("model.gguf".into(), gguf(&mut rng))],
            _ => {
                let mut f = vec![("config.json".into(), config_json(&mut rng))];
                let shards = rng.next_u64() % 3;
                for s in 0..shards {
                    f.push((
                        format!("model-{:05}-of-{shards:05}.safetensors", s + 1),
                        safetensors(&mut rng),
                    ));
                }
                if chance(&mut rng, 3) {
                    let index = json!({"weight_map": {"a": "model-00001-of-00002.safetensors",
                                                      "b": "../../etc/passwd"}});
                    f.push((
                        "model.safetensors.index.json".into(),
                        index.to_string().into_bytes(),
                    ));
                }
                f
            }
        };
        described(&files)
    })
}

/// A first block of an image or container file: a JPEG with an SOF0 marker, a PNG IHDR, a tar
/// header, or junk, sometimes damaged.
fn head(rng: &mut TestRng) -> Vec<u8> {
    let w = pick(rng, &[224u16, 0, 65535, 1, 4000]);
    let h = pick(rng, &[224u16, 0, 65535, 3000]);
    let mut b = match rng.next_u64() % 5 {
        0 => {
            let mut b = vec![0xff, 0xd8, 0xff, 0xe0, 0, 16];
            b.extend_from_slice(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
            b.extend_from_slice(&[0xff, 0xc0, 0, 17, 8]);
            b.extend_from_slice(&h.to_be_bytes());
            b.extend_from_slice(&w.to_be_bytes());
            b.extend_from_slice(&[3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
            b
        }
        1 => {
            let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
            b.extend_from_slice(&u32::from(w).to_be_bytes());
            b.extend_from_slice(&u32::from(h).to_be_bytes());
            b.extend_from_slice(&[8, 2, 0, 0, 0]);
            b
        }
        2 => {
            let mut b = vec![0u8; 512];
            b[..9].copy_from_slice(b"00001.jpg");
            b[124..135].copy_from_slice(b"00000001750");
            b[257..262].copy_from_slice(b"ustar");
            b
        }
        3 => b"PAR1\0\0\0\0".to_vec(),
        _ => (0..(rng.next_u64() % 40)).map(|i| i as u8).collect(),
    };
    if chance(rng, 3) {
        damage_bytes(&mut b, rng);
    }
    b
}

/// A dataset folder: class folders of images, shards, odd names, and file heads.
pub(crate) fn dataset_folder() -> impl Strategy<Value = String> {
    any::<bool>().prop_perturb(|_, mut rng| {
        let names = [
            "a.jpg",
            "b.JPEG",
            "c.png",
            "d.webp",
            "e.tar",
            "f.parquet",
            "data.mdb",
            "g.npy",
            "h.tfrecord",
            "i.h5",
            "readme.txt",
            "j",
            ".k.jpg",
            "l.arrow",
        ];
        let mut files: Files = Vec::new();
        for i in 0..(rng.next_u64() % 24) {
            let dir = pick(&mut rng, &["", "n01440764/", "train/cls 1/", "深/层/"]);
            let name = pick(&mut rng, &names);
            files.push((format!("{dir}{i}{name}"), head(&mut rng)));
        }
        described(&files)
    })
}

/// Writes the described files under a fresh folder; `None` when the description isn't one
/// (it always is: the strategies make it).
fn written(text: &str) -> Option<(tempfile::TempDir, Files)> {
    let files: Files = serde_json::from_str(text).ok()?;
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in &files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    Some((dir, files))
}

/// The product path of a model input: read as `--model` reads it, then the note on what was
/// read and its figures, in both languages.
pub(crate) fn run_model(text: &str) -> bool {
    let Some((dir, files)) = written(text) else {
        return false;
    };
    let path = if files.len() == 1 {
        dir.path().join(&files[0].0)
    } else {
        dir.path().to_path_buf()
    };
    match ramvram::cli::model_args::parse_model(path.to_str().unwrap()) {
        Ok(choice) => {
            let _ = (choice.params(), choice.shape(), choice.active_params());
            if let Some(r) = choice.files() {
                for lang in Lang::ALL {
                    let _ = ramvram::present::model::read_note(lang, r);
                }
            }
            true
        }
        Err(e) => {
            for lang in Lang::ALL {
                let _ = e.text(lang);
            }
            false
        }
    }
}

/// The product path of a dataset folder: scanned as `--dataset` scans it, then the workload
/// values it gives and the note in both languages.
pub(crate) fn run_dataset(text: &str) -> bool {
    let Some((dir, _)) = written(text) else {
        return false;
    };
    let Ok(scan) = ramvram::inputs::dataset::scan(dir.path()) else {
        return false;
    };
    let _ = scan.workload_values();
    for lang in Lang::ALL {
        let _ = ramvram::present::dataset::scan_note(lang, &scan, &[]);
    }
    true
}

/// A Slurm inventory with big GRES: up to 600 nodes of up to 1,025 GPUs each, around the
/// per-node cap (1,024) and the inventory's (500,000 GPUs).
pub(crate) fn slurm_big_gres() -> impl Strategy<Value = String> {
    any::<bool>().prop_perturb(|_, mut rng| {
        let nodes = pick(&mut rng, &[1u64, 2, 50, 488, 489, 600]);
        let per = pick(
            &mut rng,
            &["1024", "1025", "1000", "512", "4294967296", "8"],
        );
        let kind = pick(&mut rng, &["h100", "a100", "gb10", "unknown_gpu"]);
        let nodes: Vec<Value> = (0..nodes)
            .map(|i| {
                json!({"name": format!("n{i:04}"), "real_memory": 2_063_000,
                       "gres": format!("gpu:{kind}:{per}(S:0-1),gpu:{kind}:{}",
                                       rng.next_u64() % 3),
                       "cpus": 224})
            })
            .collect();
        serde_json::to_string(&json!({"nodes": nodes})).unwrap()
    })
}

/// The product path of a big inventory: the parse (with every cap), then the first nodes
/// assessed and put in the fleet table (every node alike: the rest would only repeat them).
pub(crate) fn run_big_slurm(text: &str) -> bool {
    let Ok(inventory) = ramvram::import::slurm::parse_inventory(text, Path::new("f")) else {
        return false;
    };
    for p in inventory.into_profiles().take(3) {
        let m = advisor::fleet::assess_machine(
            (
                "n".into(),
                advisor::fleet::Origin::Slurm("f".into()),
                p,
                vec![],
            ),
            false,
        );
        for lang in Lang::ALL {
            let _ = ramvram::present::fleet::row(lang, &m);
        }
    }
    true
}
