//! Random leaves and structure-aware mutation of JSON documents.

use super::*;

pub(crate) fn pick<T: Copy>(rng: &mut TestRng, items: &[T]) -> T {
    items[(rng.next_u64() % items.len() as u64) as usize]
}

pub(crate) fn chance(rng: &mut TestRng, one_in: u64) -> bool {
    rng.next_u64() % one_in == 0
}

/// Text that has broken parsers and renderers before: controls, bidi overrides,
/// noncharacters, Markdown and HTML, a long string, share sources and user paths.
pub(crate) fn hostile_text(rng: &mut TestRng) -> String {
    let pieces = [
        "",
        " ",
        "node-01",
        "节点-01",
        "\u{1b}]0;x\u{7}",
        "\u{0}",
        "\u{fffe}",
        "\u{202e}abc",
        "\n# h",
        "<img src=x>",
        "[a](b)",
        "|",
        "\\",
        "/home/alice/x",
        "/run/media/bob/DISK",
        "nas:/export/x",
        "//srv/share",
        "GPU-6f1c0b2e-3a4d-4e5f-8a9b-0c1d2e3f4a5b",
        "0c:42:a1:9e:00:01",
        "%s%n",
        "{lang}",
        "\u{10ffff}",
        "🙂",
        "null",
        "1e999",
        "-0",
    ];
    let mut s = String::new();
    for _ in 0..(rng.next_u64() % 4) {
        s.push_str(pick(rng, &pieces));
    }
    if chance(rng, 40) {
        s.push_str(&"x".repeat((rng.next_u64() % 6000) as usize));
    }
    s
}

/// A leaf of any JSON type, biased to boundaries.
pub(crate) fn random_leaf(rng: &mut TestRng) -> Value {
    match rng.next_u64() % 12 {
        0 => Value::Null,
        1 => Value::Bool(chance(rng, 2)),
        2 => json!((rng.next_u64() % 20_000) as i64 - 10),
        3 => json!(pick(
            rng,
            &[
                0u64,
                1,
                7,
                255,
                65_535,
                65_536,
                u32::MAX as u64,
                1 << 50,
                (1 << 50) + 1,
                u64::MAX
            ]
        )),
        4 => json!(pick(rng, &[i64::MIN, -1, -(1 << 40)])),
        5 => json!(pick(
            rng,
            &[
                0.0, -1.0, 1e308, -1e308, 1e-320, 0.5, 3.5e9, 8e10, 1e14, 1e15
            ]
        )),
        6 | 7 => Value::String(hostile_text(rng)),
        8 => json!({}),
        9 => json!([]),
        10 => Value::String((rng.next_u64() % 100_000).to_string()),
        _ => json!([random_leaf(rng), {"k": random_leaf(rng)}]),
    }
}

/// Replaces, removes, multiplies and adds parts of a valid document, about `rate` in 1,000
/// leaves changed.
pub(crate) fn mutate(v: &mut Value, rng: &mut TestRng, rate: u64) {
    if rng.next_u64() % 1000 < rate {
        *v = random_leaf(rng);
        return;
    }
    match v {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for k in keys {
                if chance(rng, 40) {
                    map.remove(&k);
                } else if let Some(x) = map.get_mut(&k) {
                    mutate(x, rng, rate);
                }
            }
            if chance(rng, 30) {
                map.insert(hostile_text(rng), random_leaf(rng));
            }
        }
        Value::Array(items) => {
            for x in items.iter_mut() {
                mutate(x, rng, rate);
            }
            if !items.is_empty() && chance(rng, 25) {
                // Many copies: list caps (1,024 GPUs, modules) and the renderers' time.
                let n = pick(rng, &[2usize, 10, 300, 1100]);
                let x = items[0].clone();
                items.extend(std::iter::repeat_n(x, n));
            }
            if chance(rng, 30) {
                items.clear();
            }
        }
        _ => {}
    }
}

/// Byte damage on the text: truncation, a random byte, a duplicated span.
pub(crate) fn damage(mut text: String, rng: &mut TestRng) -> String {
    match rng.next_u64() % 8 {
        0 if !text.is_empty() => {
            let mut cut = (rng.next_u64() % text.len() as u64) as usize;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
        }
        1 => {
            let mut at = (rng.next_u64() % (text.len() as u64 + 1)) as usize;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.insert(
                at,
                pick(rng, &['{', '}', '"', ',', ':', '\\', '\u{0}', 'é']),
            );
        }
        2 => text = format!("{text}{text}"),
        _ => {}
    }
    text
}

/// JSON text from `bases`, mutated; now and then damaged as bytes.
pub(crate) fn json_mutant(bases: Vec<Value>, rate: u64) -> impl Strategy<Value = String> {
    (0..bases.len(), any::<bool>()).prop_perturb(move |(i, raw), mut rng| {
        let mut v = bases[i].clone();
        mutate(&mut v, &mut rng, rate);
        let text = if chance(&mut rng, 2) {
            serde_json::to_string(&v).unwrap()
        } else {
            serde_json::to_string_pretty(&v).unwrap()
        };
        if raw && chance(&mut rng, 4) {
            damage(text, &mut rng)
        } else {
            text
        }
    })
}
