//! Application state and the frame: draws the panels, then applies their commands.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver};

use egui::{RichText, Ui};

use super::panels::bandwidth::BenchView;
use super::panels::training::TrainingForm;
use super::panels::{self, Command, Tab};
use super::settings::{Settings, SettingsProblem};
use super::theme;
use crate::advisor::{self, Assessment, Inputs, Severity};
use crate::bench::memory::MemoryBenchConfig;
use crate::bench::storage::StorageBenchConfig;
use crate::bench::{self, BenchError};
use crate::i18n::{Lang, Msg, tr, trf};
use crate::probe;
use crate::profile::{self, MachineProfile, MemoryBandwidth, StorageBandwidth};

/// A benchmark's result, sent back from its thread.
enum BenchOutcome {
    Memory(Result<MemoryBandwidth, BenchError>),
    Storage(Result<StorageBandwidth, BenchError>),
}

/// A benchmark running on a background thread.
struct RunningBench {
    /// What is measured, in words.
    what: String,
    cancel: Arc<AtomicBool>,
    /// Progress 0–1 as `f32` bits.
    progress: Arc<AtomicU32>,
    rx: Receiver<BenchOutcome>,
    /// The machine shown when it started: the result goes to that profile only.
    started_for: Source,
}

/// Where the machine on screen comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Detected on this machine.
    Detected,
    /// Loaded from a profile file.
    File(PathBuf),
}

/// A message banner under the toolbar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// A profile could not be opened: the error names the file and field.
    LoadFailed(String),
    /// A profile had fields this version does not know.
    IgnoredFields(Vec<String>),
    /// Settings could not be read or saved.
    Settings(SettingsProblem),
}

/// A benchmark to run.
enum BenchJob {
    Memory(MemoryBenchConfig),
    Storage(PathBuf, StorageBenchConfig),
}

/// The ramvram window's state.
pub struct RamvramApp {
    lang: Lang,
    settings: Settings,
    source: Source,
    profile: Option<MachineProfile>,
    assessment: Option<Assessment>,
    tab: Tab,
    training: TrainingForm,
    /// The plan joins the assessment once the planner has been opened.
    training_active: bool,
    detecting: Option<Receiver<MachineProfile>>,
    message: Option<Message>,
    bench: Option<RunningBench>,
    bench_view: BenchView,
    /// Test hook: the memory benchmark's configuration instead of this machine's.
    memory_bench_config: Option<MemoryBenchConfig>,
    /// Test hook: the storage benchmark's configuration instead of the default.
    storage_bench_config: Option<StorageBenchConfig>,
    /// This computer's host name, to tell whether a loaded profile describes it.
    this_host: Option<String>,
}

impl RamvramApp {
    /// An app with no machine yet; call [`Self::start_detection`], [`Self::load_profile`] or
    /// [`Self::show_profile`].
    pub fn new(lang: Lang, settings: Settings) -> RamvramApp {
        RamvramApp {
            lang,
            settings,
            source: Source::Detected,
            profile: None,
            assessment: None,
            tab: Tab::Machine,
            training: TrainingForm::default(),
            training_active: false,
            detecting: None,
            message: None,
            bench: None,
            bench_view: BenchView::new(),
            memory_bench_config: None,
            storage_bench_config: None,
            this_host: sysinfo::System::host_name().ok(),
        }
    }

    /// True when the shown profile describes the computer this window runs on (detected here,
    /// or a file with this computer's host name), so that benchmarks may be stored in it.
    pub fn can_measure(&self) -> bool {
        match (&self.source, &self.profile) {
            (Source::Detected, Some(_)) => true,
            (Source::File(_), Some(p)) => {
                p.host.hostname.is_some() && p.host.hostname == self.this_host
            }
            _ => false,
        }
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

    /// The profile on screen (with any measurements taken in this window).
    pub fn profile(&self) -> Option<&MachineProfile> {
        self.profile.as_ref()
    }

    /// Uses a memory configuration typed by the user (type, MT/s, populated channels); the
    /// profile records it as entered.
    pub fn set_memory_config(&mut self, memory_type: &str, speed_mts: u32, channels: u32) {
        if let Some(p) = &mut self.profile {
            let m = &mut p.memory;
            m.memory_type = Some(memory_type.to_string());
            m.speed_mts = Some(speed_mts.max(1));
            m.channels_populated = Some(channels.max(1));
            m.channels_source = Some(profile::ValueSource::Entered);
            m.theoretical_bandwidth_source = Some(profile::ValueSource::Entered);
        }
        self.reassess();
    }

    /// Reads `dmidecode -t memory` output from `path` and uses its modules.
    pub fn load_dmidecode(&mut self, path: &Path) {
        let file = path.display().to_string();
        let dimms = match std::fs::read_to_string(path) {
            Ok(text) => probe::dimm::parse_dmidecode(&text),
            Err(e) => {
                self.bench_view.message = Some(trf(
                    self.lang,
                    Msg::UiLoadFailed,
                    &[("error", &format!("{file}: {e}"))],
                ));
                return;
            }
        };
        if dimms.is_empty() {
            self.bench_view.message =
                Some(trf(self.lang, Msg::CliDmidecodeEmpty, &[("file", &file)]));
            return;
        }
        if let Some(p) = &mut self.profile {
            // Modules read from the machine replace a typed configuration.
            p.memory.memory_type = None;
            p.memory.speed_mts = None;
            p.memory.theoretical_bandwidth_source = None;
            p.memory.channels_populated = None;
            p.memory.channels_source = None;
            probe::dimm::apply_dimms(&mut p.memory, dimms);
        }
        self.bench_view.message = None;
        self.reassess();
    }

    /// Saves the shown profile, measurements included, to `path` (atomically).
    pub fn save_profile(&mut self, path: &Path) {
        let Some(p) = &self.profile else { return };
        let lang = self.lang;
        self.bench_view.message = Some(match profile::save_profile(p, path) {
            Ok(()) => trf(lang, Msg::BwSaved, &[("file", &path.display().to_string())]),
            Err(e) => trf(lang, Msg::BwSaveFailed, &[("error", &e.to_string())]),
        });
    }

    fn start_bench(&mut self, ctx: &egui::Context, what: String, job: BenchJob) {
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
                let outcome = match job {
                    BenchJob::Memory(config) => {
                        BenchOutcome::Memory(bench::memory::run(&config, &c, &report))
                    }
                    BenchJob::Storage(folder, config) => {
                        BenchOutcome::Storage(bench::storage::run(&folder, &config, &c, &report))
                    }
                };
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

    fn poll_bench(&mut self) {
        let Some(running) = &self.bench else { return };
        let outcome = match running.rx.try_recv() {
            Ok(o) => o,
            Err(mpsc::TryRecvError::Empty) => {
                let p = f32::from_bits(running.progress.load(Ordering::Relaxed));
                self.bench_view.running = Some((running.what.clone(), p));
                return;
            }
            Err(mpsc::TryRecvError::Disconnected) => {
                self.bench = None;
                self.bench_view.running = None;
                return;
            }
        };
        let started_for = running.started_for.clone();
        self.bench = None;
        self.bench_view.running = None;
        let lang = self.lang;
        if started_for != self.source
            && matches!(
                outcome,
                BenchOutcome::Memory(Ok(_)) | BenchOutcome::Storage(Ok(_))
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
            BenchOutcome::Memory(Err(e)) | BenchOutcome::Storage(Err(e)) => {
                self.bench_view.message = Some(error(&e));
            }
        }
    }

    /// An app showing `profile` (tests and previews).
    pub fn with_profile(lang: Lang, profile: &MachineProfile, source: Source) -> RamvramApp {
        let mut app = RamvramApp::new(lang, Settings::default());
        app.show_profile(profile, source);
        app
    }

    /// The current language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The assessment on screen, if any.
    pub fn assessment(&self) -> Option<&Assessment> {
        self.assessment.as_ref()
    }

    /// Shows a settings problem in the banner.
    pub fn notify(&mut self, problem: SettingsProblem) {
        self.message = Some(Message::Settings(problem));
    }

    /// Assesses and shows `profile`.
    pub fn show_profile(&mut self, profile: &MachineProfile, source: Source) {
        self.profile = Some(profile.clone());
        self.source = source;
        self.reassess();
    }

    /// The page on screen.
    pub fn tab(&self) -> Tab {
        self.tab
    }

    fn reassess(&mut self) {
        let inputs = Inputs {
            training: self.training_active.then(|| self.training.plan.clone()),
        };
        self.assessment = self
            .profile
            .as_ref()
            .map(|p| advisor::assess_with(p, &inputs));
    }

    /// Loads a profile file and shows it; on error keeps what was shown and says why.
    pub fn load_profile(&mut self, path: &Path) {
        match profile::load_profile(path) {
            Ok(loaded) => {
                self.show_profile(&loaded.profile, Source::File(path.to_path_buf()));
                self.message = (!loaded.ignored_fields.is_empty())
                    .then_some(Message::IgnoredFields(loaded.ignored_fields));
            }
            Err(e) => self.message = Some(Message::LoadFailed(e.to_string())),
        }
    }

    /// Detects this machine on a background thread; the result is shown when it arrives.
    pub fn start_detection(&mut self, ctx: &egui::Context) {
        let (tx, rx) = mpsc::channel();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("ramvram-detect".into())
            .spawn(move || {
                let _ = tx.send(probe::detect());
                ctx.request_repaint();
            });
        if spawned.is_ok() {
            self.detecting = Some(rx);
        }
    }

    fn poll_detection(&mut self) {
        let Some(rx) = &self.detecting else { return };
        match rx.try_recv() {
            Ok(mut profile) => {
                self.detecting = None;
                // Detecting this machine again keeps what was measured on it in this window.
                if self.source == Source::Detected {
                    if let Some(old) = &self.profile {
                        profile.measurements = old.measurements.clone();
                    }
                }
                self.show_profile(&profile, Source::Detected);
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => self.detecting = None,
        }
    }

    fn apply(&mut self, command: Command, ctx: &egui::Context) {
        match command {
            Command::SetLang(lang) => {
                self.lang = lang;
                self.settings.lang = Some(lang);
                if let Err(problem) = self.settings.save() {
                    self.message = Some(Message::Settings(problem));
                }
            }
            Command::OpenProfileDialog => {
                let picked = rfd::FileDialog::new()
                    .set_title(tr(self.lang, Msg::UiOpenProfile))
                    .add_filter(tr(self.lang, Msg::UiProfileFilter), &["json"])
                    .pick_file();
                if let Some(path) = picked {
                    self.load_profile(&path);
                }
            }
            Command::LoadProfile(path) => self.load_profile(&path),
            Command::DetectThisMachine => self.start_detection(ctx),
            Command::DismissMessage => self.message = None,
            Command::SetTab(tab) => {
                self.tab = tab;
                if tab == Tab::Training && !self.training_active {
                    self.training_active = true;
                    self.reassess();
                }
            }
            Command::SetPlan(plan) => {
                self.training.plan = plan;
                self.reassess();
            }
            Command::StartMemoryBench => {
                let config = self.memory_bench_config.clone().unwrap_or_else(|| {
                    MemoryBenchConfig::for_this_machine(probe::detect_available_memory())
                });
                let what = tr(self.lang, Msg::BwRunningMemory).to_string();
                self.start_bench(ctx, what, BenchJob::Memory(config));
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
            Command::OpenDmidecodeDialog => {
                let picked = rfd::FileDialog::new()
                    .set_title(tr(self.lang, Msg::BwOpenDmidecode))
                    .add_filter(tr(self.lang, Msg::BwDmidecodeFilter), &["txt", "log"])
                    .pick_file();
                if let Some(path) = picked {
                    self.load_dmidecode(&path);
                }
            }
            Command::SaveProfileDialog => {
                let picked = rfd::FileDialog::new()
                    .set_title(tr(self.lang, Msg::BwSaveProfile))
                    .add_filter(tr(self.lang, Msg::UiProfileFilter), &["json"])
                    .set_file_name("profile.json")
                    .save_file();
                if let Some(path) = picked {
                    self.save_profile(&path);
                }
            }
        }
    }

    fn source_text(&self) -> String {
        match &self.source {
            Source::Detected => tr(self.lang, Msg::SourceDetected).to_string(),
            Source::File(p) => trf(
                self.lang,
                Msg::SourceFile,
                &[("file", &p.display().to_string())],
            ),
        }
    }

    fn message_ui(&self, ui: &mut Ui) -> Option<Command> {
        let lang = self.lang;
        let (severity, text) = match self.message.as_ref()? {
            Message::LoadFailed(e) => (
                Severity::Critical,
                trf(lang, Msg::UiLoadFailed, &[("error", e)]),
            ),
            Message::IgnoredFields(f) => (
                Severity::Warning,
                trf(lang, Msg::UiIgnoredFields, &[("fields", &f.join(", "))]),
            ),
            Message::Settings(p) => {
                let msg = if p.writing {
                    Msg::UiSettingsNotSaved
                } else {
                    Msg::UiSettingsUnreadable
                };
                (
                    Severity::Warning,
                    trf(lang, msg, &[("file", &p.file), ("error", &p.error)]),
                )
            }
        };
        let mut dismiss = None;
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(text).color(theme::severity(severity)));
            if ui.small_button(tr(lang, Msg::UiDismiss)).clicked() {
                dismiss = Some(Command::DismissMessage);
            }
        });
        dismiss
    }

    /// Draws one frame into `ui` and applies the commands it produced.
    pub fn show(&mut self, ui: &mut Ui) {
        self.poll_detection();
        self.poll_bench();
        self.bench_view.can_measure = self.can_measure();
        let lang = self.lang;
        let ctx = ui.ctx().clone();
        let mut commands = Vec::new();
        egui::Panel::top("toolbar").show(ui, |ui| {
            ui.add_space(4.0);
            commands.extend(panels::toolbar::toolbar(
                ui,
                lang,
                &self.source_text(),
                self.detecting.is_some(),
                self.tab,
            ));
            commands.extend(self.message_ui(ui));
            ui.add_space(4.0);
        });
        // Dropping a profile file on the window opens it.
        if let Some(path) = ctx.input(|i| {
            i.raw.dropped_files.iter().find_map(|f| {
                let p = f.path();
                (!p.as_os_str().is_empty()).then(|| p.to_path_buf())
            })
        }) {
            commands.push(Command::LoadProfile(path));
        }
        match &self.assessment {
            None => {
                egui::CentralPanel::default().show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(tr(lang, Msg::UiDetecting));
                    });
                });
            }
            Some(a) => {
                egui::Panel::left("hardware")
                    .resizable(true)
                    .default_size(400.0)
                    .show(ui, |ui| {
                        egui::ScrollArea::vertical()
                            .id_salt("hardware-scroll")
                            .show(ui, |ui| {
                                panels::hardware::hardware(ui, lang, a);
                            });
                    });
                let tab = self.tab;
                let form = &mut self.training;
                let bench_view = &mut self.bench_view;
                egui::CentralPanel::default().show(ui, |ui| match tab {
                    Tab::Machine => {
                        egui::ScrollArea::vertical()
                            .id_salt("main-scroll")
                            .show(ui, |ui| {
                                panels::verdict::verdict(ui, lang, a);
                                panels::rules::rules(ui, lang, a);
                                panels::findings::findings(ui, lang, a);
                            });
                    }
                    Tab::Training => commands.extend(panels::training::training(ui, lang, form, a)),
                    Tab::Bandwidth => {
                        egui::ScrollArea::vertical()
                            .id_salt("bandwidth-scroll")
                            .show(ui, |ui| {
                                commands
                                    .extend(panels::bandwidth::bandwidth(ui, lang, a, bench_view));
                            });
                    }
                });
            }
        }
        for command in commands {
            self.apply(command, &ctx);
        }
    }
}

impl Drop for RamvramApp {
    /// Closing the window cancels a running benchmark and waits (a few seconds at most) for it
    /// to stop, so the storage benchmark's temporary folder is removed before the process ends.
    fn drop(&mut self) {
        if let Some(b) = self.bench.take() {
            b.cancel.store(true, Ordering::Relaxed);
            let _ = b.rx.recv_timeout(std::time::Duration::from_secs(10));
        }
    }
}

impl eframe::App for RamvramApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}
