//! Issue 37, item 2: strings read from files are data. A model folder's `model_type` and
//! tensor names and a dataset folder's name carry a line break and a forged line; a tensor
//! name is 5 MB long. What ramvram prints keeps each on its own line, escaped, and clipped.

use std::path::Path;

use crate::common::ramvram;

/// The forged line a hostile file tries to print on a line of its own.
const FORGED: &str = "FAKE LINE: verdict OK";

/// A safetensors file of F32 tensors `(name, elements)`, zeroed data, offsets contiguous.
fn safetensors(path: &Path, tensors: &[(String, u64)]) {
    let mut header = serde_json::Map::new();
    let mut offset = 0u64;
    for (name, elements) in tensors {
        let bytes = elements * 4;
        header.insert(
            name.clone(),
            serde_json::json!({"dtype": "F32", "shape": [elements], "data_offsets": [offset, offset + bytes]}),
        );
        offset += bytes;
    }
    let json = serde_json::Value::Object(header).to_string();
    let mut out = (json.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(json.as_bytes());
    out.resize(out.len() + offset as usize, 0);
    std::fs::write(path, out).unwrap();
}

/// No line of `text` starts with the forged line, no line is longer than `max` bytes.
fn assert_no_forged_line(text: &str, max: usize) {
    for line in text.lines() {
        assert!(
            !line.trim_start().starts_with(FORGED),
            "a file forged a line:\n{line}"
        );
        assert!(line.len() <= max, "a line of {} bytes", line.len());
    }
}

#[test]
fn model_type_and_tensor_names_print_escaped_and_clipped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.json"),
        serde_json::json!({
            "model_type": format!("llama\n{FORGED}"), "hidden_size": 64,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 4096
        })
        .to_string(),
    )
    .unwrap();
    // The largest tensor (named on the note) has a 5,000,000-byte name with a line break.
    let huge = format!("w\n{FORGED}{}", "x".repeat(5_000_000));
    safetensors(
        &dir.path().join("model.safetensors"),
        &[(huge.clone(), 64), (format!("b\r\n{FORGED}"), 8)],
    );
    let out = ramvram()
        .args(["advise", "--model"])
        .arg(dir.path())
        .args(["--inference", "vllm", "--gpus-per-node", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The line is there, with the break shown as `\n` and the name cut at 160 characters
    // (`w`, `\n` as two characters, then 157 of the forged line and the x's), then its length
    // in bytes: 1 + 1 + 21 + 5,000,000 = 5,000,023.
    let shown_name = format!(
        "w\\n{}",
        format!("{FORGED}{}", "x".repeat(200))
            .chars()
            .take(157)
            .collect::<String>()
    );
    assert!(
        stderr.contains(&format!("{shown_name}…(5000023 B)")),
        "{}",
        &stderr[..stderr.len().min(4000)]
    );
    assert!(stderr.contains(&format!("(llama\\n{FORGED})")), "{stderr}");
    // Whatever else is printed, nothing longer than a few hundred bytes, nothing forged.
    assert_no_forged_line(&stderr, 2000);
    assert_no_forged_line(&stdout, 2000);
}

#[test]
fn a_dataset_folder_name_prints_escaped() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join(format!("d\n{FORGED}"));
    std::fs::create_dir_all(data.join("class")).unwrap();
    std::fs::write(data.join("class").join("a.bin"), vec![0u8; 2 << 20]).unwrap();
    let out = ramvram()
        .args(["advise", "--dataset"])
        .arg(&data)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("d\\n{FORGED}")), "{stderr}");
    assert_no_forged_line(&stderr, 2000);
    assert_no_forged_line(&String::from_utf8_lossy(&out.stdout), 2000);
}
