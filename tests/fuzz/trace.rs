//! Traces (`ramvram watch --record`, `ramvram diagnose`): JSON Lines whose header and samples
//! are the synthetic traces' lines with their leaves mutated, lines repeated, dropped or
//! swapped, a last line cut off, and raw byte damage; then diagnosed and put into words and
//! reports.

use super::*;
use ramvram::trace::synthetic;

/// Header and sample lines of the synthetic traces, as JSON values.
fn trace_lines() -> (Vec<Value>, Vec<Value>) {
    let traces = [
        synthetic::sawtooth(40, 4),
        synthetic::swap_storm(),
        synthetic::oom_kill(),
        synthetic::shm_filling(),
    ];
    let headers = traces
        .iter()
        .map(|t| serde_json::to_value(&t.header).unwrap())
        .collect();
    let samples = traces
        .iter()
        .flat_map(|t| t.samples.iter().step_by(3))
        .map(|s| serde_json::to_value(s).unwrap())
        .collect();
    (headers, samples)
}

/// A trace file's text: a (mutated) header, then up to 80 (mutated) samples in a stretch of the
/// bases, sometimes cut off mid-line or damaged.
pub(crate) fn trace_mutant() -> impl Strategy<Value = String> {
    let (headers, samples) = trace_lines();
    (0..headers.len(), 0..samples.len(), 0u64..80).prop_perturb(move |(h, start, n), mut rng| {
        let mut header = headers[h].clone();
        if chance(&mut rng, 8) {
            mutate(&mut header, &mut rng, 4);
        }
        let mut lines = vec![serde_json::to_string(&header).unwrap()];
        for k in 0..n as usize {
            let mut s = samples[(start + k) % samples.len()].clone();
            // One line in fifteen mutated: any bad line refuses the whole file, and the
            // fuzzer must also reach the recognisers and the reports.
            if chance(&mut rng, 15) {
                mutate(&mut s, &mut rng, 40);
            }
            let line = serde_json::to_string(&s).unwrap();
            if chance(&mut rng, 30) {
                lines.push(String::new());
            }
            lines.push(line);
        }
        let mut text = lines.join("\n");
        if !chance(&mut rng, 4) {
            text.push('\n');
        } else {
            // Cut off mid-line, as a killed run leaves it.
            let mut cut = rng.next_u64() as usize % (text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text.truncate(cut);
        }
        if chance(&mut rng, 6) {
            damage(text, &mut rng)
        } else {
            text
        }
    })
}

/// A trace whose samples hold many GPUs (1 to 1,100, around the 1,024 cap, or 5,000 over it),
/// in shuffled order, sometimes with an index twice or a value mutated: the reader must stay
/// linear in the GPUs and the recognisers must stay fast.
pub(crate) fn many_gpus_trace() -> impl Strategy<Value = String> {
    let header = serde_json::to_value(&synthetic::sawtooth(4, 2).header).unwrap();
    (
        prop::sample::select(vec![1usize, 8, 100, 1023, 1024, 1025, 5000]),
        1usize..4,
    )
        .prop_perturb(move |(n, samples), mut rng| {
            let mut lines = vec![serde_json::to_string(&header).unwrap()];
            for t in 0..samples {
                let mut idx: Vec<u64> = (0..n as u64).collect();
                for i in (1..idx.len()).rev() {
                    let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                    idx.swap(i, j);
                }
                if n > 1 && chance(&mut rng, 5) {
                    idx[0] = idx[1];
                }
                let gpus: Vec<Value> = idx
                    .iter()
                    .map(|&i| {
                        let busy = rng.next_u64() % 2 == 0;
                        json!({"index": i, "util_percent": if busy { 98 } else { 2 },
                               "power_w": 300.0, "mem_used_bytes": 1u64 << 30})
                    })
                    .collect();
                let mut s = json!({"t": t, "host": {"cpu_busy_percent": 95.0}, "gpus": gpus});
                if chance(&mut rng, 4) {
                    mutate(&mut s, &mut rng, 10);
                }
                lines.push(serde_json::to_string(&s).unwrap());
            }
            lines.join("\n") + "\n"
        })
}

/// The product path of a trace: parse, diagnose, the terminal's text in both languages, every
/// diagnosis in words, and the live-diagnosis section of a Markdown (now and then PDF) report.
pub(crate) fn run_trace(text: &str, pdf: bool) -> bool {
    let path = Path::new("fuzz.jsonl");
    let Ok(loaded) = ramvram::trace::jsonl::parse_trace(text.as_bytes(), path) else {
        return false;
    };
    let summary = ramvram::advisor::diagnose::diagnose(&loaded.trace);
    for lang in Lang::ALL {
        let _ = ramvram::cli::watch::text(lang, &summary, &[]);
        for s in &loaded.trace.samples {
            let _ = ramvram::present::monitor::live_line(lang, s);
        }
        let _ = ramvram::present::timeline::timeline(lang, &loaded.trace, 600);
    }
    let monitor = ramvram::report::monitor::MonitorReport {
        source: Some("fuzz.jsonl".into()),
        trace: loaded.trace,
        summary,
    };
    let a = advisor::assess(base_machine(), &ramvram::advisor::Scenario::NONE);
    report::render_with_monitor(&a, &options(Format::Markdown), Some(&monitor)).unwrap();
    report::render_with_monitor(&a, &options(Format::Json), Some(&monitor)).unwrap();
    if pdf {
        report::render_with_monitor(&a, &options(Format::Pdf), Some(&monitor)).unwrap();
    }
    true
}
