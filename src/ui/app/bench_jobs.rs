//! The window's benchmarks: started on a background thread, polled every frame, their results
//! stored in the shown profile (memory, storage) or the workload (decode).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;

use super::RamvramApp;
use super::jobs::{BenchOutcome, RunningBench};
use crate::bench::decode::DecodeBenchConfig;
use crate::bench::memory::MemoryBenchConfig;
use crate::bench::storage::StorageBenchConfig;
use crate::bench::{self, BenchError};
use crate::i18n::{Msg, tr, trf};

/// A benchmark to run.
pub(super) enum BenchJob {
    Memory(MemoryBenchConfig),
    Storage(PathBuf, StorageBenchConfig),
    Decode(DecodeBenchConfig),
}

impl RamvramApp {
    /// Uses `config` for the decode benchmark instead of this machine's (tests use a tiny image
    /// and a short pass).
    pub fn set_decode_bench_config(&mut self, config: DecodeBenchConfig) {
        self.decode_bench_config = Some(config);
    }

    /// Uses `config` for the memory benchmark instead of this machine's (tests use tiny arrays
    /// so that a run takes milliseconds).
    pub fn set_memory_bench_config(&mut self, config: MemoryBenchConfig) {
        self.memory_bench_config = Some(config);
    }

    /// Uses `config` for the storage benchmark instead of the default (tests use a small file).
    pub fn set_storage_bench_config(&mut self, config: StorageBenchConfig) {
        self.storage_bench_config = Some(config);
    }

    /// True while a benchmark runs.
    pub fn bench_running(&self) -> bool {
        self.bench.is_some()
    }

    pub(super) fn start_bench(&mut self, ctx: &egui::Context, what: String, job: BenchJob) {
        if self.bench.is_some() || !self.can_measure() {
            return;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(AtomicU32::new(0f32.to_bits()));
        let (tx, rx) = mpsc::channel();
        let (c, p, repaint) = (cancel.clone(), progress.clone(), ctx.clone());
        let spawned = std::thread::Builder::new()
            .name("ramvram-bench".into())
            .spawn(move || {
                let report = |f: f32| {
                    p.store(f.to_bits(), Ordering::Relaxed);
                    repaint.request_repaint();
                };
                let outcome = super::worker::run_caught(|| match job {
                    BenchJob::Memory(config) => {
                        BenchOutcome::Memory(bench::memory::run(&config, &c, &report))
                    }
                    BenchJob::Storage(folder, config) => {
                        BenchOutcome::Storage(bench::storage::run(&folder, &config, &c, &report))
                    }
                    BenchJob::Decode(config) => {
                        BenchOutcome::Decode(bench::decode::run(&config, &c, &report))
                    }
                })
                .unwrap_or_else(BenchOutcome::Panicked);
                let _ = tx.send(outcome);
                repaint.request_repaint();
            });
        if spawned.is_ok() {
            self.bench_view.message = None;
            self.bench = Some(RunningBench {
                what,
                cancel,
                progress,
                rx,
                started_for: self.source.clone(),
            });
        }
    }

    pub(super) fn poll_bench(&mut self) {
        let Some(running) = &self.bench else { return };
        let outcome = match running.rx.try_recv() {
            Ok(o) => o,
            Err(mpsc::TryRecvError::Empty) => {
                let p = f32::from_bits(running.progress.load(Ordering::Relaxed));
                self.bench_view.running = Some((running.what.clone(), p));
                return;
            }
            Err(mpsc::TryRecvError::Disconnected) => BenchOutcome::Panicked(String::new()),
        };
        let started_for = running.started_for.clone();
        let running_what = running.what.clone();
        self.bench = None;
        self.bench_view.running = None;
        let lang = self.lang;
        if started_for != self.source
            && matches!(
                outcome,
                BenchOutcome::Memory(Ok(_))
                    | BenchOutcome::Storage(Ok(_))
                    | BenchOutcome::Decode(Ok(_))
            )
        {
            self.bench_view.message = Some(tr(lang, Msg::BwNotStored).to_string());
            return;
        }
        let error = |e: &BenchError| match e {
            BenchError::Cancelled => crate::present::bench::error(lang, e),
            _ => trf(
                lang,
                Msg::BenchFailed,
                &[("error", &crate::present::bench::error(lang, e))],
            ),
        };
        match outcome {
            BenchOutcome::Panicked(e) => {
                self.bench_view.message = Some(trf(
                    lang,
                    Msg::UiTaskFailed,
                    &[("task", &running_what), ("error", &e)],
                ));
            }
            BenchOutcome::Memory(Ok(m)) => {
                if let Some(p) = &mut self.profile {
                    p.measurements.memory_bandwidth = Some(m);
                }
                self.reassess();
            }
            BenchOutcome::Storage(Ok(s)) => {
                if let Some(p) = &mut self.profile {
                    p.measurements.storage.retain(|o| o.path != s.path);
                    p.measurements.storage.insert(0, s);
                }
                self.reassess();
            }
            BenchOutcome::Decode(Ok(d)) => {
                self.scenario.workload.measured_decode_mpix_per_core = Some(d.per_core_mpix_per_s);
                self.bench_view.decode = Some(d);
                self.reassess();
            }
            BenchOutcome::Memory(Err(e))
            | BenchOutcome::Storage(Err(e))
            | BenchOutcome::Decode(Err(e)) => {
                self.bench_view.message = Some(error(&e));
            }
        }
    }
}
