//! Application state and the frame: draws the panels, then applies their commands.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver};

use egui::{RichText, Ui};

use super::panels::bench_view::BenchView;
use super::panels::export::ExportForm;
use super::panels::fleet::FleetSort;
use super::panels::training::TrainingForm;
use super::panels::{self, Command, Tab};
use super::settings::{Settings, SettingsProblem};
use super::theme;
use crate::advisor::fleet::{FleetInput, FleetMachine};
use crate::advisor::{self, Assessment, Severity};
use crate::bench::decode::DecodeBenchConfig;
use crate::bench::memory::MemoryBenchConfig;
use crate::bench::storage::StorageBenchConfig;
use crate::catalog::planner::PlannedMachine;
use crate::i18n::{Lang, Msg, tr, trf};
use crate::present::errors::{profile_error, scenario_error};
use crate::probe;
use crate::profile::{self, MachineProfile};

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
    LoadFailed(crate::profile::ProfileError),
    /// A scenario could not be opened: the error names the file and field.
    ScenarioFailed(crate::inputs::scenario::ScenarioError),
    /// A profile had fields this version does not know.
    IgnoredFields(Vec<String>),
    /// A profile was written by a newer ramvram (its `schema_version`).
    NewerSchema(u32),
    /// Settings could not be read or saved.
    Settings(SettingsProblem),
    /// A report was written here.
    Exported(PathBuf),
    /// A report could not be written: the path and the system's reason.
    ExportFailed(String),
    /// Detection stopped with an internal error (a panic on its thread): the error's text.
    DetectionFailed(String),
    /// A dataset folder was scanned: what it holds (shown as information).
    DatasetScanned(Box<crate::inputs::dataset::DatasetScan>),
    /// A dataset folder could not be scanned: the folder and why.
    DatasetFailed(PathBuf, crate::fsutil::IoProblem),
    /// A model file or folder could not be read: the error names the file.
    ModelFailed(crate::inputs::model_files::ModelFileError),
}

mod bench_jobs;
mod commands;
mod file_dialogs;
mod files;
mod fleet_files;
mod monitor_jobs;
mod prometheus_jobs;
mod remembered;
mod scenario_inputs;
mod trace_origin;
mod worker;

use bench_jobs::RunningBench;
use file_dialogs::FileDialogs;
pub use file_dialogs::Purpose;
pub use prometheus_jobs::PrometheusStart;
use scenario_inputs::{Included, WindowScenario};

/// The ramvram window's state.
pub struct RamvramApp {
    lang: Lang,
    settings: Settings,
    source: Source,
    profile: Option<MachineProfile>,
    /// The machine with what the user set up: shown on the Machine page, exported.
    assessment: Option<Assessment>,
    /// The machine with the Training and Data loading pages' inputs whether set up or not:
    /// what those two pages show while the user looks. Never exported.
    preview: Option<Assessment>,
    tab: Tab,
    /// The pages' inputs and which of them are included: the one source of what is assessed.
    scenario: WindowScenario,
    /// The export dialog, while open.
    export: Option<ExportForm>,
    fleet_inputs: Vec<FleetInput>,
    fleet: Vec<FleetMachine>,
    fleet_skipped: crate::inputs::fleet::SkippedFiles,
    fleet_sort: FleetSort,
    planner: PlannedMachine,
    meeting_mode: bool,
    detecting: Option<Receiver<Result<MachineProfile, String>>>,
    message: Option<Message>,
    bench: Option<RunningBench>,
    bench_view: BenchView,
    /// Test hook: the memory benchmark's configuration instead of this machine's.
    memory_bench_config: Option<MemoryBenchConfig>,
    /// Test hook: the storage benchmark's configuration instead of the default.
    storage_bench_config: Option<StorageBenchConfig>,
    /// Test hook: the decode benchmark's configuration instead of this machine's.
    decode_bench_config: Option<DecodeBenchConfig>,
    /// Save the inputs in the settings file when they change (the real window; not tests).
    remember_inputs: bool,
    /// The inputs as last saved, or as shown at start: the settings file is written only
    /// when the user changes them (never on the first frame, so that a corrupt file's backup
    /// and a saved language are not replaced by defaults the user never chose).
    saved_inputs: remembered::Remembered,
    /// Which inputs were restored from the settings file (their pages say so until changed).
    restored: remembered::Restored,
    /// This computer's host name, to tell whether a loaded profile describes it.
    this_host: Option<String>,
    /// File dialogs: the system's, or a path typed in the window.
    files: FileDialogs,
    /// The Monitor page: a live watch or an opened trace.
    monitor: monitor_jobs::MonitorState,
}

impl RamvramApp {
    /// An app with no machine yet; call [`Self::start_detection`], [`Self::load_profile`] or
    /// [`Self::show_profile`].
    pub fn new(lang: Lang, settings: Settings) -> RamvramApp {
        let (inputs, restored) = remembered::Remembered::from_settings(&settings);
        RamvramApp {
            lang,
            settings,
            source: Source::Detected,
            profile: None,
            assessment: None,
            preview: None,
            tab: Tab::Machine,
            scenario: WindowScenario {
                training: TrainingForm::new(inputs.training.clone()),
                workload: inputs.workload.clone(),
                inference: None,
                include: Included {
                    training: inputs.include_training,
                    workload: inputs.include_workload,
                },
            },
            saved_inputs: inputs,
            restored,
            remember_inputs: false,
            export: None,
            fleet_inputs: Vec::new(),
            fleet: Vec::new(),
            fleet_skipped: Vec::new(),
            fleet_sort: FleetSort {
                column: 4,
                ascending: true,
            },
            planner: PlannedMachine::desktop("GeForce RTX 3090 24GB", 2, 64),
            meeting_mode: false,
            detecting: None,
            message: None,
            bench: None,
            bench_view: BenchView::new(),
            memory_bench_config: None,
            storage_bench_config: None,
            decode_bench_config: None,
            this_host: sysinfo::System::host_name().ok(),
            files: FileDialogs::default(),
            monitor: monitor_jobs::MonitorState::new(),
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
            m.channels_source = Some(profile::Provenance::Entered);
            m.theoretical_bandwidth_source = Some(profile::Provenance::Entered);
        }
        self.reassess();
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

    /// The Data loading page's workload (with the decode rate in use).
    pub fn workload(&self) -> &crate::advisor::workload::Workload {
        &self.scenario.workload
    }

    /// The assessment on screen and in exports, if any: the machine with the inputs the user
    /// set up.
    pub fn assessment(&self) -> Option<&Assessment> {
        self.assessment.as_ref()
    }

    /// The machine assessed with the Training and Data loading pages' inputs, set up or not:
    /// what those pages show. Never exported.
    pub fn preview(&self) -> Option<&Assessment> {
        self.preview.as_ref()
    }

    /// Whether the training plan, and the workload, are part of the assessment.
    pub fn included_inputs(&self) -> (bool, bool) {
        (
            self.scenario.include.training,
            self.scenario.include.workload,
        )
    }

    /// Shows a settings problem in the banner.
    pub fn notify(&mut self, problem: SettingsProblem) {
        self.message = Some(Message::Settings(problem));
    }

    /// Assesses and shows `profile`.
    pub fn show_profile(&mut self, profile: &MachineProfile, source: Source) {
        // A plan nobody set up follows the machine: as many GPUs as it has.
        // That follows the machine, not the user: the settings file is not rewritten for it.
        if !self.scenario.include.training {
            let gpus = crate::advisor::defaults::gpus_per_node(profile);
            if self.saved_inputs.training == self.scenario.training.plan {
                self.saved_inputs.training.gpus_per_node = gpus;
            }
            self.scenario.training.plan.gpus_per_node = gpus;
        }
        self.profile = Some(profile.clone());
        self.source = source;
        self.reassess();
    }

    /// The page on screen.
    pub fn tab(&self) -> Tab {
        self.tab
    }

    fn reassess(&mut self) {
        let (set_up, on_pages) = (self.scenario.assessed(), self.scenario.on_pages());
        self.assessment = self.profile.as_ref().map(|p| advisor::assess(p, &set_up));
        self.preview = self.profile.as_ref().map(|p| advisor::assess(p, &on_pages));
    }

    /// Includes the training plan (`Some(true)`), the workload, or both in the assessment and
    /// the report, or leaves them out.
    pub fn include_inputs(&mut self, training: Option<bool>, workload: Option<bool>) {
        if let Some(t) = training {
            self.scenario.include.training = t;
        }
        if let Some(w) = workload {
            self.scenario.include.workload = w;
        }
        self.reassess();
    }

    /// Detects this machine on a background thread; the result is shown when it arrives.
    pub fn start_detection(&mut self, ctx: &egui::Context) {
        let (tx, rx) = mpsc::channel();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("ramvram-detect".into())
            .spawn(move || {
                let _ = tx.send(worker::run_caught(probe::detect));
                ctx.request_repaint();
            });
        if spawned.is_ok() {
            self.detecting = Some(rx);
        }
    }

    fn poll_detection(&mut self) {
        let Some(rx) = &self.detecting else { return };
        match rx.try_recv() {
            Err(mpsc::TryRecvError::Disconnected) => {
                self.detecting = None;
                self.message = Some(Message::DetectionFailed(String::new()));
            }
            Ok(Err(e)) => {
                self.detecting = None;
                self.message = Some(Message::DetectionFailed(e));
            }
            Ok(Ok(mut profile)) => {
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
        }
    }

    /// The export dialog's choices, while it is open (tests set them).
    pub fn export_form(&mut self) -> Option<&mut ExportForm> {
        self.export.as_mut()
    }

    /// What the toolbar says about the machine shown: "This machine (detected)", or "Profile:"
    /// and the file's name; with the full path for the hover text.
    fn source_text(&self) -> (String, Option<String>) {
        // The Monitor page shows a trace, which may not be this machine's: name where it is from.
        if self.tab == Tab::Monitor {
            use trace_origin::TraceOrigin;
            match &self.monitor.origin {
                Some(TraceOrigin::File(p)) => {
                    let name = p
                        .file_name()
                        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into());
                    let text =
                        |file: &str| trf(self.lang, Msg::MonitorUiSourceTrace, &[("file", file)]);
                    return (text(&name), Some(text(&p.display().to_string())));
                }
                Some(TraceOrigin::Prometheus { node, .. }) => {
                    let node = crate::sanitize::clean(node);
                    let text = trf(
                        self.lang,
                        Msg::MonitorUiSourcePrometheus,
                        &[("node", &node)],
                    );
                    return (text, None);
                }
                _ => {}
            }
        }
        match &self.source {
            Source::Detected => (tr(self.lang, Msg::SourceDetected).to_string(), None),
            Source::File(p) => {
                let name = p
                    .file_name()
                    .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into());
                let text = |file: &str| trf(self.lang, Msg::SourceFile, &[("file", file)]);
                (text(&name), Some(text(&p.display().to_string())))
            }
        }
    }

    fn message_ui(&self, ui: &mut Ui) -> Option<Command> {
        let lang = self.lang;
        let (severity, text) = match self.message.as_ref()? {
            Message::LoadFailed(e) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiLoadFailed,
                    &[("error", &profile_error(lang, e))],
                ),
            ),
            Message::ScenarioFailed(e) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiLoadFailed,
                    &[("error", &scenario_error(lang, e))],
                ),
            ),
            Message::DatasetScanned(s) => (
                Severity::Info,
                crate::present::dataset::scan_note(lang, s, &[]),
            ),
            Message::DatasetFailed(path, p) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiLoadFailed,
                    &[(
                        "error",
                        &crate::present::model::value_error(
                            &crate::inputs::model_files::ModelFileError {
                                file: path.clone(),
                                problem: crate::inputs::model_files::ModelProblem::Io(p.clone()),
                            },
                        )
                        .text(lang),
                    )],
                ),
            ),
            Message::ModelFailed(e) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiLoadFailed,
                    &[("error", &crate::present::model::value_error(e).text(lang))],
                ),
            ),
            Message::IgnoredFields(f) => (
                Severity::Warning,
                trf(
                    lang,
                    Msg::UiIgnoredFields,
                    &[("fields", &crate::present::join(lang, f))],
                ),
            ),
            Message::NewerSchema(v) => (
                Severity::Warning,
                trf(
                    lang,
                    Msg::UiNewerSchema,
                    &[
                        ("version", &v.to_string()),
                        ("ours", &crate::profile::SCHEMA_VERSION.to_string()),
                    ],
                ),
            ),
            Message::Exported(path) => {
                let text = trf(
                    lang,
                    Msg::ExportDone,
                    &[("file", &path.display().to_string())],
                );
                let mut command = None;
                ui.horizontal_wrapped(|ui| {
                    ui.label(
                        RichText::new(text).color(theme::tier(crate::advisor::Tier::LargeModel)),
                    );
                    if ui.small_button(tr(lang, Msg::ExportOpenFolder)).clicked() {
                        command = Some(Command::RevealFile(path.clone()));
                    }
                    if ui.small_button(tr(lang, Msg::UiDismiss)).clicked() {
                        command = Some(Command::DismissMessage);
                    }
                });
                return command;
            }
            Message::ExportFailed(e) => (
                Severity::Critical,
                trf(lang, Msg::ExportFailed, &[("error", e)]),
            ),
            Message::DetectionFailed(e) => (
                Severity::Critical,
                trf(
                    lang,
                    Msg::UiTaskFailed,
                    &[("task", tr(lang, Msg::UiTaskDetection)), ("error", e)],
                ),
            ),
            Message::Settings(p) => {
                let msg = if p.writing {
                    Msg::UiSettingsNotSaved
                } else {
                    Msg::UiSettingsUnreadable
                };
                let mut text = trf(lang, msg, &[("file", &p.file), ("error", &p.error)]);
                if let Some(bad) = &p.kept_as {
                    text.push(' ');
                    text.push_str(&trf(lang, Msg::UiSettingsKept, &[("file", bad)]));
                }
                (Severity::Warning, text)
            }
        };
        let mut dismiss = None;
        // A message may name a field or a command as code (`schema_version`): a paragraph
        // sets it apart, then the button to dismiss it.
        ui.add(crate::ui::paragraph::Paragraph::new(
            RichText::new(text).color(theme::severity(severity)),
        ));
        if ui.small_button(tr(lang, Msg::UiDismiss)).clicked() {
            dismiss = Some(Command::DismissMessage);
        }
        dismiss
    }

    /// Draws one frame into `ui` and applies the commands it produced.
    pub fn show(&mut self, ui: &mut Ui) {
        self.poll_detection();
        self.poll_bench();
        self.poll_watch();
        self.poll_prometheus();
        self.bench_view.can_measure = self.can_measure();
        let lang = self.lang;
        let ctx = ui.ctx().clone();
        let mut commands = Vec::new();
        egui::Panel::top("toolbar").show(ui, |ui| {
            ui.add_space(4.0);
            let (source, source_detail) = self.source_text();
            commands.extend(panels::toolbar::toolbar(
                ui,
                lang,
                &source,
                source_detail.as_deref(),
                self.detecting.is_some(),
                self.tab,
            ));
            commands.extend(self.message_ui(ui));
            ui.add_space(4.0);
        });
        // Dropping one profile on the window opens it; dropping several adds them to the fleet.
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        match dropped.len() {
            0 => {}
            1 if dropped[0].extension().is_some_and(|e| e == "jsonl") => {
                commands.push(Command::OpenTrace(dropped[0].clone()))
            }
            1 => commands.push(Command::LoadProfile(dropped[0].clone())),
            _ => commands.push(Command::AddFleetFiles(dropped)),
        }
        let monitor_status = self.monitor_status();
        let monitor_gaps = self.monitor_gaps();
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
                if !matches!(self.tab, Tab::Fleet | Tab::Workload | Tab::Monitor) {
                    // 300 points on a small window (800 points), 400 on a large one.
                    let width = (ui.available_width() * 0.3).clamp(300.0, 400.0);
                    egui::Panel::left("hardware")
                        .resizable(true)
                        .default_size(width)
                        .show(ui, |ui| {
                            egui::ScrollArea::vertical()
                                .id_salt("hardware-scroll")
                                .show(ui, |ui| {
                                    panels::hardware::hardware(ui, lang, a);
                                });
                        });
                }
                let tab = self.tab;
                let preview = self.preview.as_ref().unwrap_or(a);
                let restored = self.restored_inputs();
                let training_in = (self.scenario.include.training, restored.training);
                let workload_in = (self.scenario.include.workload, restored.workload);
                let form = &mut self.scenario.training;
                let workload = &mut self.scenario.workload;
                let bench_view = &mut self.bench_view;
                let (fleet, fleet_skipped, fleet_sort) =
                    (&self.fleet, &self.fleet_skipped, self.fleet_sort);
                let (planner, meeting) = (&mut self.planner, self.meeting_mode);
                let monitor = &mut self.monitor;
                egui::CentralPanel::default().show(ui, |ui| match tab {
                    Tab::Machine => {
                        egui::ScrollArea::vertical()
                            .id_salt("main-scroll")
                            .show(ui, |ui| {
                                panels::verdict::verdict(ui, lang, a);
                                panels::rules::rules(ui, lang, a);
                                panels::findings::findings(ui, lang, a);
                                panels::purchase::purchase(ui, lang, a);
                                panels::recommendations::recommendations(
                                    ui,
                                    lang,
                                    &a.recommendations,
                                    None,
                                );
                            });
                    }
                    Tab::Training => commands.extend(panels::training::training(
                        ui,
                        lang,
                        form,
                        preview,
                        training_in,
                    )),
                    Tab::Bandwidth => {
                        egui::ScrollArea::vertical()
                            .id_salt("bandwidth-scroll")
                            .show(ui, |ui| {
                                commands
                                    .extend(panels::bandwidth::bandwidth(ui, lang, a, bench_view));
                            });
                    }
                    Tab::Workload => commands.extend(panels::workload::workload(
                        ui,
                        lang,
                        workload,
                        preview,
                        workload_in,
                        bench_view,
                    )),
                    Tab::Fleet => commands.extend(panels::fleet::fleet(
                        ui,
                        lang,
                        fleet,
                        fleet_skipped,
                        fleet_sort,
                        planner,
                        meeting,
                    )),
                    Tab::Monitor => {
                        egui::ScrollArea::vertical()
                            .id_salt("monitor-scroll")
                            .show(ui, |ui| {
                                let view = panels::monitor::MonitorView {
                                    trace: monitor.trace.as_ref(),
                                    summary: monitor.summary.as_ref(),
                                    status: monitor_status,
                                    running: monitor.running.is_some(),
                                    message: monitor.message.as_deref(),
                                    gaps: &monitor_gaps,
                                    busy: monitor.prometheus_job.as_ref().map(|j| j.what.as_str()),
                                    clock: monitor.fetched.as_ref().map(|f| f.request.start),
                                };
                                commands.extend(panels::monitor::monitor(
                                    ui,
                                    lang,
                                    &view,
                                    &mut monitor.pid_text,
                                    &mut monitor.prometheus,
                                ));
                            });
                    }
                });
            }
        }
        // The path field, when a dialog had to be typed, in front of the export dialog.
        self.path_prompt_ui(&ctx);
        let contents = self
            .assessment
            .as_ref()
            .map(|a| crate::present::inputs::report_contents(lang, a, self.scenario.left_out()));
        if let Some(form) = self.export.as_mut().filter(|_| !self.files.prompting()) {
            egui::Window::new(tr(lang, Msg::ExportOpen))
                .collapsible(false)
                .resizable(false)
                .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
                .show(&ctx, |ui| {
                    commands.extend(panels::export::export(
                        ui,
                        lang,
                        form,
                        contents.as_deref().unwrap_or_default(),
                    ))
                });
        }
        for command in commands {
            self.apply(command, &ctx);
        }
        self.save_inputs(&ctx);
    }
}

impl Drop for RamvramApp {
    /// Closing the window cancels a running benchmark and waits (a few seconds at most) for it
    /// to stop, so the storage benchmark's temporary folder is removed before the process ends.
    fn drop(&mut self) {
        self.stop_watch();
        if let Some(b) = self.bench.take() {
            b.cancel.store(true, Ordering::Relaxed);
            let _ = b.rx.recv_timeout(std::time::Duration::from_secs(10));
        }
    }
}

/// The widest glyph atlas the window asks for, in pixels. egui makes its font atlas as wide as
/// the largest texture the renderer takes (16,384 on Mesa's llvmpipe) and doubles its height as
/// glyphs arrive, so a wide atlas wastes most of its last rows, held twice (egui's copy and the
/// driver's). 4,096 × 4,096 still holds every glyph of the Chinese pages at twice the scale (an
/// atlas that fills is cleared and drawn again); docs/benchmarks.md has the figures. egui also
/// checks images against this side; the window draws none larger (its icon is 256 × 256).
const ATLAS_SIDE: usize = 4096;

impl eframe::App for RamvramApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        raw_input.max_texture_side = Some(
            raw_input
                .max_texture_side
                .map_or(ATLAS_SIDE, |side| side.min(ATLAS_SIDE)),
        );
    }
}
