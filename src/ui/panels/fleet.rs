//! Lab machines side by side: a sortable table, RAM against VRAM with the rule lines, and a
//! planner that adds machines that don't exist yet.

use egui::{RichText, Ui};

use super::Command;
use crate::advisor::fleet::FleetMachine;
use crate::catalog::catalog;
use crate::catalog::planner::PlannedMachine;
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};
pub use crate::present::fleet::{FleetSort, order};
use crate::present::fleet::{header, row};
use crate::profile::DiskKind;
use crate::ui::theme;

/// How the fleet page shows its machines: the table's order and what the lab's order is
/// priced from (the price list, and its file as shown; `None` for the typical prices).
#[derive(Clone, Copy)]
pub struct FleetView<'a> {
    /// The table's order.
    pub sort: FleetSort,
    /// The prices.
    pub prices: &'a crate::advisor::buying::lab::PriceList,
    /// The lab's price list as shown, `None` for the typical prices.
    pub prices_file: Option<&'a str>,
}

/// Draws the fleet page.
pub fn fleet(
    ui: &mut Ui,
    lang: Lang,
    machines: &[FleetMachine],
    skipped: &crate::inputs::fleet::SkippedFiles,
    view: FleetView<'_>,
    planner: &mut PlannedMachine,
    meeting: bool,
) -> Vec<Command> {
    let sort = view.sort;
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        if ui.button(tr(lang, Msg::FleetOpenProfiles)).clicked() {
            commands.push(Command::AddProfilesDialog);
        }
        if ui.button(tr(lang, Msg::FleetOpenFolder)).clicked() {
            commands.push(Command::AddFolderDialog);
        }
        if ui.button(tr(lang, Msg::FleetImportSlurm)).clicked() {
            commands.push(Command::ImportSlurmDialog);
        }
        if ui
            .add_enabled(
                !machines.is_empty(),
                egui::Button::new(tr(lang, Msg::FleetExport)),
            )
            .clicked()
        {
            commands.push(Command::ExportFleetDialog);
        }
        if ui
            .add_enabled(
                !machines.is_empty(),
                egui::Button::new(tr(lang, Msg::FleetClear)),
            )
            .clicked()
        {
            commands.push(Command::ClearFleet);
        }
        // A button like its neighbours, highlighted while on (a bare selectable label read as
        // plain text when off).
        if ui
            .add(egui::Button::new(tr(lang, Msg::FleetMeetingMode)).selected(meeting))
            .clicked()
        {
            commands.push(Command::ToggleMeetingMode);
        }
    });
    if machines.is_empty() {
        ui.add(crate::ui::paragraph::Paragraph::new(tr(
            lang,
            Msg::FleetEmpty,
        )));
    }
    // In meeting mode the table and the chart take turns on the screen (a projector shows one
    // at a time at a readable size); the choice is the view's own, not the assessment's.
    let show_id = egui::Id::unique("fleet-meeting-chart");
    let mut show_chart = ui.data(|d| d.get_temp::<bool>(show_id)).unwrap_or(false);
    if meeting && !machines.is_empty() {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut show_chart, false, tr(lang, Msg::FleetShowTable));
            ui.selectable_value(&mut show_chart, true, tr(lang, Msg::FleetChartTitle));
        });
        ui.data_mut(|d| d.insert_temp(show_id, show_chart));
    }
    if meeting && show_chart && !machines.is_empty() {
        super::fleet_chart::chart(ui, lang, machines, meeting);
        return commands;
    }
    egui::ScrollArea::vertical()
        .id_salt("fleet-scroll")
        .show(ui, |ui| {
            if !machines.is_empty() {
                // A table wider than the page (meeting mode's larger text, long GPU names)
                // scrolls sideways on its own; the chart below keeps the page's width.
                egui::ScrollArea::horizontal()
                    .id_salt("fleet-table-scroll")
                    .show(ui, |ui| table(ui, lang, machines, sort, &mut commands));
                let list = crate::present::document::fleet::skipped_files(
                    lang,
                    skipped.iter().map(|(f, why)| (f.as_str(), Some(why))),
                );
                crate::ui::blocks::show(ui, lang, "fleet-skipped", &list);
                if !meeting {
                    super::heading(ui, tr(lang, Msg::FleetChartTitle));
                    super::fleet_chart::chart(ui, lang, machines, meeting);
                }
                // What to buy across the lab, priced, after the table and its chart.
                commands.extend(super::lab_order::lab_order(
                    ui,
                    lang,
                    machines,
                    sort,
                    view.prices,
                    view.prices_file,
                ));
            }
            super::heading(ui, tr(lang, Msg::PlannerSection));
            commands.extend(planner_form(ui, lang, planner));
        });
    commands
}

/// Each column's share of the table's width (machine, GPUs, VRAM, RAM, ratio, tier, most
/// serious finding): every column fits the page, long texts wrap, and a cell cut short shows
/// its whole text on hover.
const COLUMN_SHARES: [f32; 7] = [1.6, 1.5, 0.8, 0.9, 0.7, 1.3, 2.4];

/// The widest each column may grow on a page `width` points wide, with `gap` between columns.
fn column_widths(width: f32, gap: f32) -> [f32; 7] {
    let total: f32 = COLUMN_SHARES.iter().sum();
    let usable = (width - gap * 7.0).max(350.0);
    COLUMN_SHARES.map(|s| usable * s / total)
}

fn table(
    ui: &mut Ui,
    lang: Lang,
    machines: &[FleetMachine],
    sort: FleetSort,
    commands: &mut Vec<Command>,
) {
    let widths = column_widths(ui.available_width(), 12.0);
    egui::Grid::new("fleet-table")
        .num_columns(7)
        .striped(true)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            for (i, h) in header(lang).iter().enumerate() {
                let arrow = if sort.column == i {
                    if sort.ascending { " ▲" } else { " ▼" }
                } else {
                    ""
                };
                // Long headers ("RAM for the ratio and the rules") wrap instead of widening
                // the table past the page.
                let clicked = ui
                    .scope(|ui| {
                        ui.set_max_width(widths[i]);
                        ui.add(
                            egui::Button::selectable(sort.column == i, format!("{h}{arrow}"))
                                .wrap(),
                        )
                        .clicked()
                    })
                    .inner;
                if clicked {
                    commands.push(Command::SortFleet(i));
                }
            }
            ui.end_row();
            for i in order(lang, machines, sort) {
                let m = &machines[i];
                let cells = row(lang, m);
                let name = ui
                    .scope(|ui| {
                        ui.set_max_width(widths[0]);
                        // A link that wraps (a long host name breaks instead of widening
                        // the table past the page).
                        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
                        ui.add(egui::Link::new(&cells[0]))
                    })
                    .inner;
                let hint = format!("{}\n{}", cells[0], tr(lang, Msg::FleetOpenHint));
                if name.on_hover_text(hint).clicked() {
                    commands.push(Command::ShowFleetMachine(i));
                }
                for (c, width) in cells[1..5].iter().zip(&widths[1..5]) {
                    ui.scope(|ui| {
                        ui.set_max_width(*width);
                        ui.add(egui::Label::new(c).wrap());
                    });
                }
                let colour = m
                    .assessment
                    .ratio
                    .tier
                    .map_or(ui.visuals().text_color(), theme::tier);
                ui.scope(|ui| {
                    ui.set_max_width(widths[5]);
                    ui.add(
                        egui::Label::new(RichText::new(&cells[5]).color(colour).strong()).wrap(),
                    );
                });
                let worst = m
                    .worst_finding()
                    .map_or(ui.visuals().text_color(), |f| theme::severity(f.severity));
                // Two lines at most; what doesn't fit is on hover.
                ui.scope(|ui| {
                    ui.set_max_width(widths[6]);
                    let text = egui::text::LayoutJob::simple(
                        cells[6].clone(),
                        egui::TextStyle::Body.resolve(ui.style()),
                        worst,
                        widths[6],
                    );
                    let mut job = text;
                    job.wrap.max_rows = 2;
                    ui.add(egui::Label::new(job).wrap())
                        .on_hover_text(&cells[6]);
                });
                ui.end_row();
            }
        });
}

fn planner_form(ui: &mut Ui, lang: Lang, p: &mut PlannedMachine) -> Option<Command> {
    let c = catalog();
    let mut command = None;
    egui::Grid::new("planner")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            let l = ui.label(tr(lang, Msg::PlannerGpu));
            egui::ComboBox::from_id_salt("planner-gpu")
                .selected_text(
                    c.gpu(&p.gpu_model)
                        .map_or(p.gpu_model.clone(), |g| g.model.clone()),
                )
                .show_ui(ui, |ui| {
                    for g in &c.gpus {
                        ui.selectable_value(&mut p.gpu_model, g.model.clone(), &g.model);
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(tr(lang, Msg::PlannerGpuCount));
            ui.add(egui::DragValue::new(&mut p.gpu_count).range(1..=16))
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(tr(lang, Msg::PlannerPlatform));
            egui::ComboBox::from_id_salt("planner-platform")
                .selected_text(crate::present::names::platform_name(lang, &p.platform))
                .show_ui(ui, |ui| {
                    for pf in &c.platforms {
                        ui.selectable_value(
                            &mut p.platform,
                            pf.platform.clone(),
                            crate::present::names::platform_name(lang, &pf.platform),
                        );
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(tr(lang, Msg::PlannerSockets));
            ui.add(egui::DragValue::new(&mut p.sockets).range(1..=2))
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(tr(lang, Msg::PlannerMemoryType));
            egui::ComboBox::from_id_salt("planner-memory")
                .selected_text(p.memory_type.clone())
                .show_ui(ui, |ui| {
                    for m in &c.memory {
                        ui.selectable_value(&mut p.memory_type, m.name.clone(), &m.name);
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(tr(lang, Msg::PlannerDimmSize));
            egui::ComboBox::from_id_salt("planner-dimm")
                .selected_text(format!("{} GB", p.dimm_gib))
                .show_ui(ui, |ui| {
                    // The sizes sold for the platform's memory type and form factor.
                    for g in dimm_sizes_gib(&p.platform) {
                        ui.selectable_value(&mut p.dimm_gib, g, format!("{g} GB"));
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(tr(lang, Msg::PlannerDimmCount));
            ui.add(egui::DragValue::new(&mut p.dimm_count).range(1..=48))
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(tr(lang, Msg::PlannerStorage));
            let kinds = [
                DiskKind::Nvme,
                DiskKind::Ssd,
                DiskKind::Hdd,
                DiskKind::Network,
            ];
            egui::ComboBox::from_id_salt("planner-storage")
                .selected_text(crate::present::disk_kind(lang, p.storage))
                .show_ui(ui, |ui| {
                    for k in kinds {
                        ui.selectable_value(&mut p.storage, k, crate::present::disk_kind(lang, k));
                    }
                })
                .response
                .labelled_by(l.id);
            ui.end_row();
            let l = ui.label(tr(lang, Msg::PlannerName));
            ui.text_edit_singleline(&mut p.name).labelled_by(l.id);
            ui.end_row();
        });
    // The planned machine's RAM as the catalogue builds it, not summed again here.
    let (planned, issues) = crate::catalog::planner::build(p);
    let total = planned
        .memory
        .total_bytes
        .map_or_else(|| format::unknown(lang), format::gib);
    ui.label(trf(lang, Msg::PlannerTotal, &[("ram", &total)]));
    for issue in &issues {
        ui.label(
            RichText::new(crate::present::fleet::plan_issue(lang, issue))
                .color(theme::severity(crate::advisor::Severity::Warning)),
        );
    }
    if ui.button(tr(lang, Msg::PlannerAdd)).clicked() {
        command = Some(Command::AddPlanned(p.clone()));
    }
    command
}

/// Module sizes, GB, sold for the planned platform (its memory type and form factor, from the
/// catalogue); every UDIMM and RDIMM size when the platform isn't in it.
fn dimm_sizes_gib(platform: &str) -> Vec<u64> {
    let c = crate::catalog::catalog();
    let mut sizes: Vec<u64> = match c.platform(platform) {
        Some(pf) => pf.module_sizes(&c.modules),
        None => c
            .modules
            .iter()
            .filter(|m| {
                use crate::catalog::modules::FormFactor;
                matches!(m.form_factor, FormFactor::Udimm | FormFactor::Rdimm)
            })
            .filter_map(|m| m.size_gb.map(|g| g << 30))
            .collect(),
    };
    sizes.sort_unstable();
    sizes.dedup();
    sizes.into_iter().map(|b| b >> 30).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The MacBook (unified memory: no RAM:VRAM ratio) sorts after every machine with a ratio,
    /// ascending and descending; the others by their ratio.
    #[test]
    fn unknown_ratios_sort_last_both_ways() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/profiles");
        let paths: Vec<_> = [
            "macbook-pro-m4max-128g",
            "aws-g5.xlarge",
            "dgx-h100",
            "live-4x4080-64g",
        ]
        .iter()
        .map(|n| dir.join(format!("{n}.json")))
        .collect();
        let (inputs, skipped) = crate::inputs::fleet::from_files(&paths);
        assert!(skipped.is_empty());
        let machines = crate::advisor::fleet::assess_fleet(inputs);
        let labels = |ascending| -> Vec<String> {
            order(
                Lang::En,
                &machines,
                FleetSort {
                    column: 4,
                    ascending,
                },
            )
            .into_iter()
            .map(|i| machines[i].label.clone())
            .collect()
        };
        // Ratios: g5 0.67×, 4080 box 1.00×, DGX H100 3.20×; the Mac has none.
        assert_eq!(
            labels(true),
            [
                "aws-g5.xlarge",
                "live-4x4080-64g",
                "dgx-h100",
                "macbook-pro-m4max-128g"
            ]
        );
        assert_eq!(
            labels(false),
            [
                "dgx-h100",
                "live-4x4080-64g",
                "aws-g5.xlarge",
                "macbook-pro-m4max-128g"
            ]
        );
    }
}
