//! The Monitor page's "From Prometheus…" form: the server, a node (typed, or chosen from the
//! list the server gives), the time range and the step. Fetching runs off the UI thread
//! (`ui::app::prometheus_jobs`); the result is shown as any trace is.

use std::path::PathBuf;

use egui::{RichText, Ui};

use super::Command;
use crate::i18n::{Lang, Msg, tr, trf};

/// What the form holds (the window's runtime state; not saved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrometheusForm {
    /// Shown under the Monitor page's buttons.
    pub open: bool,
    /// The server's URL.
    pub url: String,
    /// The node (its instance label, with or without the port).
    pub node: String,
    /// Start of the range, as typed (RFC 3339, Unix seconds, `now`, `-4h`).
    pub from: String,
    /// End of the range, as typed.
    pub to: String,
    /// Step, as typed (`15s`).
    pub step: String,
    /// The nodes the server listed.
    pub nodes: Vec<String>,
    /// A mapping file given on the command line (`--mapping`), else the defaults.
    pub mapping: Option<PathBuf>,
}

impl Default for PrometheusForm {
    fn default() -> PrometheusForm {
        PrometheusForm {
            open: false,
            url: "http://localhost:9090".to_string(),
            node: String::new(),
            from: "-1h".to_string(),
            to: "now".to_string(),
            step: "15s".to_string(),
            nodes: Vec::new(),
            mapping: None,
        }
    }
}

/// Draws the form; `busy` is what runs now ("Asking http://…"), if anything.
pub fn form(ui: &mut Ui, lang: Lang, f: &mut PrometheusForm, busy: Option<&str>) -> Vec<Command> {
    let mut commands = Vec::new();
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            egui::Grid::new("prometheus-form")
                .num_columns(2)
                .spacing([12.0, 6.0])
                .show(ui, |ui| {
                    let l = ui.label(tr(lang, Msg::ClusterUiUrl));
                    ui.horizontal(|ui| {
                        ui.add(egui::TextEdit::singleline(&mut f.url).desired_width(320.0))
                            .labelled_by(l.id);
                        let list = ui.add_enabled(
                            busy.is_none(),
                            egui::Button::new(tr(lang, Msg::ClusterUiListNodes)),
                        );
                        if list.clicked() {
                            commands.push(Command::ListPrometheusNodes);
                        }
                        if !f.nodes.is_empty() {
                            let n = f.nodes.len().to_string();
                            ui.label(
                                RichText::new(trf(
                                    lang,
                                    Msg::ClusterUiNodesFound,
                                    &[("count", &n)],
                                ))
                                .weak(),
                            );
                        }
                    });
                    ui.end_row();
                    let l = ui.label(tr(lang, Msg::ClusterUiNode));
                    ui.horizontal(|ui| {
                        ui.add(egui::TextEdit::singleline(&mut f.node).desired_width(200.0))
                            .labelled_by(l.id);
                        if !f.nodes.is_empty() {
                            egui::ComboBox::from_id_salt("prometheus-nodes")
                                .selected_text(f.node.clone())
                                .width(200.0)
                                .show_ui(ui, |ui| {
                                    for n in &f.nodes {
                                        if ui.selectable_label(f.node == *n, n).clicked() {
                                            f.node = n.clone();
                                        }
                                    }
                                })
                                .response
                                .labelled_by(l.id);
                        }
                    });
                    ui.end_row();
                    let l = ui.label(tr(lang, Msg::ClusterUiFrom));
                    ui.horizontal(|ui| {
                        ui.add(egui::TextEdit::singleline(&mut f.from).desired_width(200.0))
                            .labelled_by(l.id);
                        let l = ui.label(tr(lang, Msg::ClusterUiTo));
                        ui.add(egui::TextEdit::singleline(&mut f.to).desired_width(200.0))
                            .labelled_by(l.id);
                        let l = ui.label(tr(lang, Msg::ClusterUiStep));
                        ui.add(egui::TextEdit::singleline(&mut f.step).desired_width(60.0))
                            .labelled_by(l.id);
                    });
                    ui.end_row();
                });
            ui.add_space(4.0);
            ui.horizontal_wrapped(|ui| {
                let fetch = ui.add_enabled(
                    busy.is_none(),
                    egui::Button::new(RichText::new(tr(lang, Msg::ClusterUiFetch)).strong()),
                );
                if fetch.clicked() {
                    commands.push(Command::FetchPrometheus);
                }
                if ui.button(tr(lang, Msg::ClusterUiClose)).clicked() {
                    commands.push(Command::TogglePrometheus);
                }
                if let Some(what) = busy {
                    ui.spinner();
                    ui.label(what);
                }
            });
            ui.add(crate::ui::paragraph::Paragraph::new(
                RichText::new(tr(lang, Msg::ClusterUiHint)).weak(),
            ));
        });
    commands
}
