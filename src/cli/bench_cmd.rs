//! `ramvram bench …`: runs a benchmark on this machine, prints or stores its result, and turns
//! Ctrl-C into a clean cancel (the storage benchmark removes its files; the signal handling is
//! [`super::interrupt`]'s).

use std::process::ExitCode;

use super::interrupt::{EXIT_INTERRUPTED, INTERRUPTED, catch_interrupts, interrupting_signal};
use super::{
    BenchCommand, EXIT_BAD_INPUT, EXIT_OUTPUT_FAILED, fail, load_for_cli, print, say, text_bench,
};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::errors::profile_error;
use crate::{probe, profile};

pub(super) fn bench(lang: Lang, what: &BenchCommand) -> ExitCode {
    catch_interrupts();
    let cancel = &INTERRUPTED;
    match what {
        BenchCommand::Decode {
            image_size,
            threads,
            seconds,
            json,
        } => {
            let mut config = crate::bench::decode::DecodeBenchConfig::for_this_machine(
                image_size.0,
                image_size.1,
            );
            if let Some(t) = threads {
                config.threads = *t;
            }
            if let Some(s) = seconds {
                config.time_per_pass = std::time::Duration::from_secs(u64::from(*s));
            }
            say(&text_bench::decode_running(lang, &config));
            match crate::bench::decode::run(&config, cancel, &|_| {}) {
                Ok(r) if *json => {
                    print(&(serde_json::to_string_pretty(&r).expect("serialises") + "\n"))
                }
                Ok(r) => super::print_text(&text_bench::decode(lang, &r)),
                Err(crate::bench::BenchError::Cancelled) => cancelled(lang),
                Err(e @ crate::bench::BenchError::ImageTooLarge { .. }) => fail(
                    lang,
                    EXIT_BAD_INPUT,
                    &crate::present::bench::error(lang, &e),
                ),
                Err(e) => fail(
                    lang,
                    EXIT_OUTPUT_FAILED,
                    &crate::present::bench::error(lang, &e),
                ),
            }
        }
        BenchCommand::Memory {
            json,
            array_bytes,
            into,
        } => {
            // Read the profile first: a bad file is reported before the benchmark runs.
            let mut target = match into.as_deref().map(|p| load_for_cli(lang, p)).transpose() {
                Ok(t) => t,
                Err(code) => return code,
            };
            let started = std::time::Instant::now();
            let available = probe::detect_available_memory();
            let mut config = crate::bench::memory::MemoryBenchConfig::for_this_machine(available);
            if let Some(b) = array_bytes {
                match usize::try_from(*b / 8) {
                    Ok(n) => config.array_elements = n.max(1),
                    Err(_) => return too_large(lang, "--array-bytes", &b.to_string()),
                }
            }
            let llc = crate::bench::memory::last_level_cache(std::path::Path::new("/sys"));
            say(&crate::present::bench::memory_running(
                lang,
                &config,
                llc,
                array_bytes.is_some(),
            ));
            let result = crate::bench::memory::run(&config, cancel, &|_| {});
            if result.is_ok() {
                say(&crate::present::bench::memory_took(
                    lang,
                    started.elapsed().as_secs_f64(),
                ));
            }
            if let (Ok(m), Some(p), Some(path)) = (&result, target.as_mut(), into.as_deref()) {
                p.measurements.memory_bandwidth = Some(m.clone());
                if let Err(e) = profile::save_profile(p, path) {
                    return fail(lang, EXIT_OUTPUT_FAILED, &profile_error(lang, &e));
                }
            }
            match result {
                Ok(m) if *json => {
                    print(&(serde_json::to_string_pretty(&m).expect("serialises") + "\n"))
                }
                Ok(m) => super::print_text(&text_bench::memory(lang, &m)),
                Err(crate::bench::BenchError::Cancelled) => cancelled(lang),
                Err(e) => fail(
                    lang,
                    EXIT_OUTPUT_FAILED,
                    &crate::present::bench::error(lang, &e),
                ),
            }
        }
        BenchCommand::Storage {
            folder,
            json,
            size_mib,
            into,
        } => {
            let mut target = match into.as_deref().map(|p| load_for_cli(lang, p)).transpose() {
                Ok(t) => t,
                Err(code) => return code,
            };
            let mut config = crate::bench::storage::StorageBenchConfig::default();
            if let Some(m) = size_mib {
                match (*m).max(1).checked_mul(1 << 20) {
                    Some(bytes) => config.sequential_bytes = bytes,
                    None => return too_large(lang, "--size-mib", &m.to_string()),
                }
            }
            say(&trf(
                lang,
                Msg::BenchStorageRunning,
                &[("path", &folder.display().to_string())],
            ));
            let result = crate::bench::storage::run(folder, &config, cancel, &|_| {});
            if let (Ok(r), Some(p), Some(path)) = (&result, target.as_mut(), into.as_deref()) {
                // One entry per folder, the latest first.
                p.measurements.storage.retain(|o| o.path != r.path);
                p.measurements.storage.insert(0, r.clone());
                if let Err(e) = profile::save_profile(p, path) {
                    return fail(lang, EXIT_OUTPUT_FAILED, &profile_error(lang, &e));
                }
            }
            match result {
                Ok(s) if *json => {
                    print(&(serde_json::to_string_pretty(&s).expect("serialises") + "\n"))
                }
                Ok(s) => super::print_text(&text_bench::storage(lang, &s)),
                Err(crate::bench::BenchError::Cancelled) => cancelled(lang),
                Err(e @ crate::bench::BenchError::Path { .. }) => fail(
                    lang,
                    EXIT_BAD_INPUT,
                    &crate::present::bench::error(lang, &e),
                ),
                Err(e) => fail(
                    lang,
                    EXIT_OUTPUT_FAILED,
                    &crate::present::bench::error(lang, &e),
                ),
            }
        }
    }
}

/// A size flag whose bytes don't fit in 64 bits (or in this machine's address space).
fn too_large(lang: Lang, flag: &str, value: &str) -> ExitCode {
    fail(
        lang,
        EXIT_BAD_INPUT,
        &trf(
            lang,
            Msg::ValueFlagTooLarge,
            &[("flag", flag), ("value", value)],
        ),
    )
}

fn cancelled(lang: Lang) -> ExitCode {
    say(&format!("ramvram: {}", tr(lang, Msg::BenchCancelled)));
    match interrupting_signal().and_then(|s| u8::try_from(s).ok()) {
        Some(s) => ExitCode::from(128 + s),
        None => ExitCode::from(EXIT_INTERRUPTED),
    }
}
