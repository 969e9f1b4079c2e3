//! The window's state: the machine shown and its assessments, the pages' inputs, the running
//! jobs' handles and the dialogs; and what changes them directly (a profile shown, inputs
//! included). The other jobs (detection, the banner, the frame, files, benchmarks, the Monitor
//! page) are `impl` blocks in the files beside this one.

use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;

use super::file_dialog_state::FileDialogs;
use super::jobs::RunningBench;
use super::message::Message;
use super::monitor_state::MonitorState;
use super::remembered::{Remembered, Restored};
use super::scenario_inputs::{Included, WindowScenario};
use super::source::Source;
use crate::advisor::fleet::{FleetInput, FleetMachine};
use crate::advisor::{self, Assessment};
use crate::bench::decode::DecodeBenchConfig;
use crate::bench::memory::MemoryBenchConfig;
use crate::bench::storage::StorageBenchConfig;
use crate::catalog::planner::PlannedMachine;
use crate::i18n::Lang;
use crate::profile::{self, MachineProfile};
use crate::ui::panels::Tab;
use crate::ui::panels::bench_view::BenchView;
use crate::ui::panels::export::ExportForm;
use crate::ui::panels::fleet::FleetSort;
use crate::ui::panels::training::TrainingForm;
use crate::ui::settings::{Settings, SettingsProblem};

/// The ramvram window's state.
pub struct RamvramApp {
    pub(super) lang: Lang,
    pub(super) settings: Settings,
    pub(super) source: Source,
    pub(super) profile: Option<MachineProfile>,
    /// The machine with what the user set up: shown on the Machine page, exported.
    pub(super) assessment: Option<Assessment>,
    /// The machine with the Training and Data loading pages' inputs whether set up or not:
    /// what those two pages show while the user looks. Never exported.
    pub(super) preview: Option<Assessment>,
    pub(super) tab: Tab,
    /// The pages' inputs and which of them are included: the one source of what is assessed.
    pub(super) scenario: WindowScenario,
    /// The export dialog, while open.
    pub(super) export: Option<ExportForm>,
    pub(super) fleet_inputs: Vec<FleetInput>,
    pub(super) fleet: Vec<FleetMachine>,
    pub(super) fleet_skipped: crate::inputs::fleet::SkippedFiles,
    pub(super) fleet_sort: FleetSort,
    /// What the lab's order is priced from: the typical prices, or the lab's price list.
    pub(super) lab_prices: crate::advisor::buying::lab::PriceList,
    /// The lab's price list as shown (its file), `None` for the typical prices.
    pub(super) lab_prices_file: Option<String>,
    pub(super) planner: PlannedMachine,
    pub(super) meeting_mode: bool,
    pub(super) detecting: Option<Receiver<Result<MachineProfile, String>>>,
    pub(super) message: Option<Message>,
    pub(super) bench: Option<RunningBench>,
    pub(super) bench_view: BenchView,
    /// Test hook: the memory benchmark's configuration instead of this machine's.
    pub(super) memory_bench_config: Option<MemoryBenchConfig>,
    /// Test hook: the storage benchmark's configuration instead of the default.
    pub(super) storage_bench_config: Option<StorageBenchConfig>,
    /// Test hook: the decode benchmark's configuration instead of this machine's.
    pub(super) decode_bench_config: Option<DecodeBenchConfig>,
    /// Save the inputs in the settings file when they change (the real window; not tests).
    pub(super) remember_inputs: bool,
    /// The inputs as last saved, or as shown at start: the settings file is written only
    /// when the user changes them (never on the first frame, so that a corrupt file's backup
    /// and a saved language are not replaced by defaults the user never chose).
    pub(super) saved_inputs: Remembered,
    /// Which inputs were restored from the settings file (their pages say so until changed).
    pub(super) restored: Restored,
    /// This computer's host name, to tell whether a loaded profile describes it.
    pub(super) this_host: Option<String>,
    /// File dialogs: the system's, or a path typed in the window.
    pub(super) files: FileDialogs,
    /// The Monitor page: a live watch or an opened trace.
    pub(super) monitor: MonitorState,
}

impl RamvramApp {
    /// An app with no machine yet; call [`Self::start_detection`], [`Self::load_profile`] or
    /// [`Self::show_profile`].
    pub fn new(lang: Lang, settings: Settings) -> RamvramApp {
        let (inputs, restored) = Remembered::from_settings(&settings);
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
            lab_prices: crate::advisor::buying::lab::typical_prices(),
            lab_prices_file: None,
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
            monitor: MonitorState::new(),
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

    pub(super) fn reassess(&mut self) {
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

    /// The export dialog's choices, while it is open (tests set them).
    pub fn export_form(&mut self) -> Option<&mut ExportForm> {
        self.export.as_mut()
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
