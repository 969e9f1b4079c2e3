//! The window's commands: what a panel asked for, applied to the state at the end of a frame.

use std::sync::atomic::Ordering;

use super::bench_jobs::BenchJob;
use super::{Message, Purpose, RamvramApp, Source};
use crate::advisor::fleet::Origin;
use crate::bench::decode::DecodeBenchConfig;
use crate::bench::memory::MemoryBenchConfig;
use crate::i18n::{Msg, tr, trf};
use crate::probe;
use crate::ui::panels::export::ExportForm;
use crate::ui::panels::fleet::FleetSort;
use crate::ui::panels::{Command, Tab};

impl RamvramApp {
    /// Asks for a file for `purpose` with its usual dialog.
    fn ask(&mut self, purpose: Purpose) {
        self.ask_file(purpose, self.request(purpose));
    }

    pub(super) fn apply(&mut self, command: Command, ctx: &egui::Context) {
        match command {
            Command::SetLang(lang) => {
                self.lang = lang;
                self.settings.lang = Some(lang);
                if let Err(problem) = self.settings.save() {
                    self.message = Some(Message::Settings(problem));
                }
            }
            Command::OpenProfileDialog => self.ask(Purpose::OpenProfile),
            Command::LoadProfile(path) => self.load_profile(&path),
            Command::DetectThisMachine => self.start_detection(ctx),
            Command::DismissMessage => self.message = None,
            // Looking at a page or changing an input sets nothing up: only "include" does (or
            // opening a scenario, model or dataset file).
            Command::SetTab(tab) => self.tab = tab,
            Command::SetPlan(plan) => {
                self.scenario.training.plan = plan;
                self.reassess();
            }
            Command::IncludeTraining(on) => self.include_inputs(Some(on), None),
            Command::IncludeWorkload(on) => self.include_inputs(None, Some(on)),
            Command::OpenExport => self.export = Some(ExportForm::new(self.lang)),
            Command::CloseExport => self.export = None,
            Command::ChooseExportFile => self.choose_export_file(),
            Command::ExportTo(path) => self.export_to(&path),
            Command::AddProfilesDialog => self.ask(Purpose::AddProfiles),
            Command::AddFolderDialog => self.ask(Purpose::AddFolder),
            Command::ImportSlurmDialog => self.ask(Purpose::ImportSlurm),
            Command::AddFleetFiles(paths) => self.add_fleet_files(&paths),
            Command::AddPlanned(plan) => self.add_planned(plan),
            Command::ClearFleet => {
                self.fleet_inputs.clear();
                self.fleet_skipped.clear();
                self.fleet.clear();
            }
            Command::ShowFleetMachine(i) => {
                if let Some(m) = self.fleet.get(i) {
                    let profile = m.assessment.profile.clone();
                    let source = match &m.origin {
                        Origin::File(f) => Source::File(f.into()),
                        _ => Source::Detected,
                    };
                    self.show_profile(&profile, source);
                    self.tab = Tab::Machine;
                }
            }
            Command::SortFleet(column) => {
                let ascending = self.fleet_sort.column != column || !self.fleet_sort.ascending;
                self.fleet_sort = FleetSort { column, ascending };
            }
            Command::ToggleMeetingMode => {
                self.meeting_mode = !self.meeting_mode;
                ctx.set_zoom_factor(if self.meeting_mode { 1.5 } else { 1.0 });
            }
            Command::ExportFleetDialog => self.choose_fleet_export_file(),
            Command::OpenPricesDialog => self.ask(Purpose::OpenPrices),
            Command::UseTypicalPrices => {
                self.lab_prices = crate::advisor::buying::lab::typical_prices();
                self.lab_prices_file = None;
            }
            Command::SetWorkload(w) => {
                self.scenario.workload = w;
                self.reassess();
            }
            Command::OpenScenarioDialog => self.ask(Purpose::OpenScenario),
            Command::OpenModelFileDialog => self.ask(Purpose::OpenModelFile),
            Command::OpenDatasetDialog => self.ask(Purpose::OpenDataset),
            Command::OpenModelFolderDialog => self.ask(Purpose::OpenModelFolder),
            Command::SaveScenarioDialog => self.ask(Purpose::SaveScenario),
            Command::RevealFile(path) => {
                if let Err(e) = opener::reveal(&path) {
                    self.message = Some(Message::ExportFailed(format!("{}: {e}", path.display())));
                }
            }
            Command::StartMemoryBench => {
                let config = self.memory_bench_config.clone().unwrap_or_else(|| {
                    MemoryBenchConfig::for_this_machine(probe::detect_available_memory())
                });
                let what = tr(self.lang, Msg::BwRunningMemory).to_string();
                self.start_bench(ctx, what, BenchJob::Memory(config));
            }
            Command::StartDecodeBench => {
                let (w, h) = match (self.scenario.workload.width, self.scenario.workload.height) {
                    (0, _) | (_, 0) => (1920, 1080),
                    size => size,
                };
                let config = self
                    .decode_bench_config
                    .clone()
                    .unwrap_or_else(|| DecodeBenchConfig::for_this_machine(w, h));
                let what = tr(self.lang, Msg::WorkRunningDecode).to_string();
                self.start_bench(ctx, what, BenchJob::Decode(config));
            }
            Command::StartStorageBench(folder) => {
                let what = trf(
                    self.lang,
                    Msg::BwRunningStorage,
                    &[("path", &folder.display().to_string())],
                );
                let config = self.storage_bench_config.clone().unwrap_or_default();
                self.start_bench(ctx, what, BenchJob::Storage(folder, config));
            }
            Command::CancelBench => {
                if let Some(b) = &self.bench {
                    b.cancel.store(true, Ordering::Relaxed);
                }
            }
            Command::SetMemoryConfig {
                memory_type,
                speed_mts,
                channels,
            } => self.set_memory_config(&memory_type, speed_mts, channels),
            Command::OpenDmidecodeDialog => self.ask(Purpose::OpenDmidecode),
            Command::SaveProfileDialog => self.ask(Purpose::SaveProfile),
            Command::StartWatch(pid) => self.start_watch(ctx, &pid),
            Command::StopWatch => self.stop_watch(),
            Command::OpenTraceDialog => self.ask(Purpose::OpenTrace),
            Command::OpenTrace(path) => self.open_trace(&path),
            Command::TogglePrometheus => {
                self.monitor.prometheus.open = !self.monitor.prometheus.open;
            }
            Command::ListPrometheusNodes => self.list_prometheus_nodes(ctx),
            Command::FetchPrometheus => self.fetch_prometheus(ctx),
        }
    }
}
