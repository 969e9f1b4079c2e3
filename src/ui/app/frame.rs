//! One frame: the toolbar and banner, the page of the tab chosen, the export dialog; then the
//! commands the panels returned are applied.

use std::path::PathBuf;

use egui::Ui;

use super::state::RamvramApp;
use crate::i18n::{Msg, tr};
use crate::ui::panels::{self, Command, Tab};

impl RamvramApp {
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
                let (fleet, fleet_skipped) = (&self.fleet, &self.fleet_skipped);
                let (planner, meeting) = (&mut self.planner, self.meeting_mode);
                let view = panels::fleet::FleetView {
                    sort: self.fleet_sort,
                    prices: &self.lab_prices,
                    prices_file: self.lab_prices_file.as_deref(),
                };
                let monitor = &mut self.monitor;
                egui::CentralPanel::default().show(ui, |ui| match tab {
                    Tab::Machine => {
                        egui::ScrollArea::vertical()
                            .id_salt("main-scroll")
                            .show(ui, |ui| {
                                let carried = (training_in.0 && training_in.1)
                                    || (workload_in.0 && workload_in.1);
                                panels::machine::machine(ui, lang, a, carried);
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
                        view,
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
