//! Finding English left in Chinese output: the words of a text that are neither Chinese nor on
//! a short, explained allow-list. Used by `tests/locale_complete.rs` on every page of the
//! window, every report and the terminal.
//!
//! What may stay in Latin letters inside Chinese text, and why:
//! - the machine's own data (host names, CPU and GPU models, OS names, paths): the caller
//!   passes every string of the profile, and they are taken out first;
//! - commands, flags, file names and code identifiers: what the locale files mark as code
//!   spans (`` `ramvram bench memory` ``), and any token with a `/`, `_`, `=`, `.` or digit in it
//!   or starting with `-` (`/dev/shm`, `pin_memory`, `vm.swappiness=10`, `--lang`, `A100`),
//!   and the value right after an option (`--finetune lora`: a recommendation's arguments);
//! - titles of cited works, inside 《》, which stay in the language they were published in;
//! - a one-word gloss in full-width parentheses right after the Chinese term it explains
//!   ("锁页（pinned）"), the way Chinese technical writing introduces a term;
//! - abbreviations written in capitals (CPU, DDP, UUID, JSON) and single letters (the s, b, h
//!   of a formula; the x of 1920x1080);
//! - [`ALLOWED`]: units, product and project names, people's names in citations, and the
//!   handful of English terms Chinese deep-learning students use as they are.

use std::collections::BTreeSet;

use ramvram::i18n::{Lang, Msg, tr};

/// Words that may appear in Chinese output, by kind. Nothing here is an ordinary English
/// word a translator should have translated.
pub const ALLOWED: &[&str] = &[
    // Units.
    "GiB",
    "MiB",
    "KiB",
    "TiB",
    "GB",
    "MB",
    "TB",
    "KB",
    "s",
    "ms",
    "MP",
    "MT",
    "GT",
    "px",
    // Hardware and vendors.
    "GeForce",
    "Tesla",
    "Xeon",
    "EPYC",
    "Ryzen",
    "Threadripper",
    "Flex",
    "Scalable",
    "Sapphire",
    "Emerald",
    "Rapids",
    "Apple",
    "Intel",
    "Mac",
    "macOS",
    "Metal",
    "Microsoft",
    "Google",
    "Oracle",
    "Cloud",
    "Azure",
    "Cisco",
    "Puget",
    "Systems",
    "Slurm",
    "Docker",
    "Kubernetes",
    "Linux",
    "Unix",
    "Windows",
    "Ubuntu",
    "Debian",
    "Hugging",
    "Face",
    "NVMe",
    "PCIe",
    "vCPU",
    "Silicon",
    "Spark",
    "Grace",
    "Hopper",
    "DGX",
    // Software and formats.
    "DeepSpeed",
    "PyTorch",
    "ZeRO",
    "ZeRO-Offload",
    "ZeRO-Infinity",
    "LoRA",
    "QLoRA",
    "DataLoader",
    "WebDataset",
    "TFRecord",
    "Arrow",
    "NumPy",
    "Python",
    "Pillow",
    "libjpeg-turbo",
    "zune-jpeg",
    "torchvision",
    "ImageFolder",
    "Accelerate",
    "FlashAttention",
    "bitsandbytes",
    "safetensors",
    "Prometheus",
    "node_exporter",
    "DCGM",
    // Inference engines (the library's own spelling).
    "vLLM",
    "transformers",
    "GGUF",
    "Ollama",
    "Jetson",
    "APU",
    "MXFP4",
    "Adam",
    "AdamW",
    "Adafactor",
    "Transformer",
    "Triad",
    "Copy",
    "Scale",
    "Add",
    "Offload",
    "systemd",
    "tar",
    "doctor",
    "Markdown",
    // Models in preset names.
    "LLaMA",
    "Llama",
    "ResNet",
    "ViT",
    "UNet",
    "ImageNet",
    // Model families in the model catalogue (assets/catalog/models.csv): product names.
    "Qwen",
    "Mistral",
    "Mixtral",
    "Gemma",
    "DeepSeek",
    "Distill",
    "Phi",
    "Stable",
    "Diffusion",
    "Medium",
    "FLUX",
    "dev",
    "schnell",
    "MMDiT",
    "OpenCLIP",
    "mini",
    "medium",
    "gpt",
    "oss",
    "torchtune",
    "accelerate",
    "Lightning",
    "FSDPStrategy",
    // People cited by name.
    "Tim",
    "Dettmers",
    "Stas",
    "Bekman",
    "Korthikanti",
    // Deep-learning terms Chinese students use untranslated in speech and writing.
    "batch",
    "micro-batch",
    "worker",
    "epoch",
    "rank",
    "token",
    "swap",
    "cgroup",
    "killer",
    "Bus",
    "error",
    // A language's own name on the language switch ("English"), and the language codes
    // `--lang` takes.
    "English",
    "en",
    "zh",
    // The program's name, and a field of /proc/meminfo the RAM figures are read from.
    "ramvram",
    "MemTotal",
    // A key on the keyboard.
    "Ctrl",
    // Kernel setting values shown as the kernel writes them (transparent huge pages).
    "always",
    "madvise",
    "never",
];

/// Latin-letter words in `text` that are not allowed in Chinese output (see the module docs),
/// each with some text around it. `data` are the strings of the machine's profile.
pub fn stray_english(text: &str, data: &[String]) -> Vec<String> {
    // One space between words, as the code spans are written (PDF text extraction and
    // terminal padding put in more).
    let words: Vec<&str> = text
        .split([' ', '\u{a0}', '\t'])
        .filter(|w| !w.is_empty())
        .collect();
    // Options' values (`--finetune lora`: a recommendation's arguments) are command text.
    let all_words: Vec<&str> = words
        .iter()
        .flat_map(|w| w.split(['\n', '\r']))
        .filter(|w| !w.is_empty())
        .collect();
    let option_values: BTreeSet<String> = all_words
        .windows(2)
        .filter(|p| {
            // "参数：--offload-optimizer": the option may follow Chinese punctuation directly.
            let option = p[0].trim_start_matches(|c: char| !c.is_ascii());
            option.starts_with("--") && option.len() > 2 && !p[1].starts_with('-')
        })
        .filter(|p| p[1].chars().all(|c| c.is_ascii_graphic()))
        .map(|p| p[1].to_string())
        .collect();
    let mut text = words.join(" ");
    let mut longest_first: Vec<&String> = data.iter().filter(|d| d.chars().count() >= 2).collect();
    longest_first.sort_by_key(|d| std::cmp::Reverse(d.len()));
    // Commands first: a host name may share a word with one ("docker-4090…", `docker run`).
    for piece in code_pieces() {
        // A short option (`-fa`) or a plain word (`all`) is also the middle of longer words
        // (`--prefetch-factor`, `small`): only whole.
        let short_option = piece.starts_with('-') && !piece.starts_with("--");
        let word = piece.chars().all(|c| c.is_ascii_alphabetic());
        text = if short_option || word {
            replace_whole(&text, &piece)
        } else {
            text.replace(piece.as_str(), " ")
        };
    }
    for d in longest_first {
        text = replace_whole(&text, d);
    }
    let text = drop_between(&drop_between(&text, '`', '`'), '《', '》');
    let allowed: BTreeSet<&str> = ALLOWED.iter().copied().collect();
    // The machine's own words, for tokens PDF text extraction ran together ("xlargeaws").
    let data_words: BTreeSet<&str> = data
        .iter()
        .flat_map(|d| d.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| !w.is_empty())
        .collect();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut bad = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        if !c.is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && is_token_char(chars[j].1) {
            j += 1;
        }
        let end = chars.get(j).map_or(text.len(), |(b, _)| *b);
        let token = text[start..end].trim_end_matches(['.', '-', '\'', '’']);
        // `--lang`: the scan starts at the letters; the dashes before them make an option.
        let token = if text[..start].ends_with('-') {
            "-"
        } else {
            token
        };
        let before = text[..start].chars().last();
        let after = text[end..].chars().next();
        let gloss = before == Some('（')
            && after == Some('）')
            && text[..start].chars().rev().nth(1).is_some_and(is_cjk)
            && !token.contains(' ');
        if !(gloss
            || option_values.contains(token)
            || acceptable(token, &allowed)
            || run_together(token, &data_words))
        {
            let from = text[..start]
                .char_indices()
                .rev()
                .nth(24)
                .map_or(0, |(b, _)| b);
            let to = text[end..]
                .char_indices()
                .nth(24)
                .map_or(text.len(), |(b, _)| end + b);
            bad.push(format!(
                "{token:?} in “{}”",
                text[from..to].replace('\n', " ")
            ));
        }
        i = j;
    }
    bad
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '=' | '-' | '+' | '\'' | '’')
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x303F | 0x4E00..=0x9FFF | 0xFF00..=0xFFEF)
}

/// Whether a Latin token may stay: code-like, a number, an abbreviation, one letter, or on the
/// allow-list (a hyphenated token when every part is).
fn acceptable(token: &str, allowed: &BTreeSet<&str>) -> bool {
    let letters = token.chars().filter(|c| c.is_ascii_alphabetic()).count();
    letters == 0
        || letters == 1
        || token.starts_with('-')
        || token.contains(['/', '_', '=', '.', '+'])
        || token.chars().any(|c| c.is_ascii_digit())
        || token.chars().all(|c| c.is_ascii_uppercase() || c == '-')
        || allowed.contains(token)
        || token
            .split('-')
            .all(|part| part.is_empty() || allowed.contains(part) || part.len() == 1)
}

/// `text` with each occurrence of `word` that doesn't continue a Latin word on either side
/// ("out" in "--out", not in "without") replaced by a space.
fn replace_whole(text: &str, word: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(word) {
        let before = rest[..i].chars().last();
        let after = rest[i + word.len()..].chars().next();
        let joins = |c: Option<char>| c.is_some_and(is_token_char);
        out.push_str(&rest[..i]);
        if joins(before) || joins(after) {
            out.push_str(word);
        } else {
            out.push(' ');
        }
        rest = &rest[i + word.len()..];
    }
    out.push_str(rest);
    out
}

/// Whether `token` is two or more of the machine's own `words` written without spaces, as
/// PDF text extraction joins neighbouring table cells.
fn run_together(token: &str, words: &BTreeSet<&str>) -> bool {
    // reach[i]: token[..i] splits into words.
    let n = token.len();
    let mut reach = vec![false; n + 1];
    reach[0] = true;
    for i in 0..n {
        if !reach[i] || !token.is_char_boundary(i) {
            continue;
        }
        for w in words {
            if token[i..].starts_with(w) {
                reach[i + w.len()] = true;
            }
        }
    }
    reach[n]
}

/// `text` without the parts between each `open` and the next `close`.
fn drop_between(text: &str, open: char, close: char) -> String {
    let mut out = String::with_capacity(text.len());
    let mut inside = false;
    for c in text.chars() {
        if !inside && c == open {
            inside = true;
            out.push(' ');
        } else if inside && c == close {
            inside = false;
        } else if !inside {
            out.push(c);
        }
    }
    out
}

/// The literal parts (three characters or more) of every code span in the Chinese locale
/// files: a command as the terminal and the PDF print it, without its backticks.
pub fn code_pieces() -> Vec<String> {
    let mut pieces = BTreeSet::new();
    for m in Msg::ALL {
        for span in ramvram::codespan::parse(tr(Lang::Zh, m)).code {
            let text = &ramvram::codespan::parse(tr(Lang::Zh, m)).text[span];
            for part in text.split(['{', '}']).step_by(2) {
                let part = part.trim();
                if part.chars().count() >= 3 {
                    pieces.insert(part.to_string());
                }
            }
        }
    }
    let mut pieces: Vec<String> = pieces.into_iter().collect();
    pieces.sort_by_key(|p| std::cmp::Reverse(p.len()));
    pieces
}

/// Every string value in a JSON document: the machine's own data.
pub fn json_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|v| json_strings(v, out)),
        serde_json::Value::Object(o) => o.values().for_each(|v| json_strings(v, out)),
        _ => {}
    }
}
