//! The Lab machines page's chart, driven through AccessKit (egui_kittest): a plain scroll wheel
//! over the chart scrolls the page and leaves the chart alone; Ctrl + wheel zooms the chart;
//! "Reset view" brings the whole lab back.

mod common;

use egui::{Event, Id, Modifiers, MouseWheelUnit, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use egui_plot::{PlotBounds, PlotMemory};
use ramvram::i18n::Lang;
use ramvram::ui::RamvramApp;
use ramvram::ui::app::Source;
use ramvram::ui::panels::fleet_chart::PLOT_ID;

const CHART: &str =
    "Chart of the lab's machines: usable RAM against total VRAM, one point per machine";

/// The window on the Lab machines page with every fixture profile loaded, tall enough that the
/// table (its cells wrap to two lines), the chart and "Reset view" are all in view: egui only
/// clicks a widget that is.
fn lab_window() -> Harness<'static, RamvramApp> {
    let profile = common::fixture("aws-g5.xlarge");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    app.add_fleet_dir(common::fixture_path("aws-g5.xlarge").parent().unwrap());
    let mut h = common::window::window(app, 1700.0);
    h.run();
    h
}

fn view(h: &Harness<'_, RamvramApp>) -> PlotBounds {
    *PlotMemory::load(&h.ctx, Id::unique(PLOT_ID))
        .expect("the chart has drawn")
        .bounds()
}

/// Three notches of the wheel: `up` turns it away from the user (scrolls up, zooms in).
fn wheel(h: &Harness<'_, RamvramApp>, up: bool, modifiers: Modifiers) {
    h.event(Event::MouseWheel {
        unit: MouseWheelUnit::Line,
        delta: vec2(0.0, if up { 3.0 } else { -3.0 }),
        modifiers,
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
    });
}

#[test]
fn scrolling_over_the_lab_chart_scrolls_the_page_not_the_chart() {
    let mut h = lab_window();
    let chart = h.get_by_label(CHART).rect();
    let before = view(&h);
    h.hover_at(chart.center());
    h.run();
    wheel(&h, false, Modifiers::NONE);
    h.run();
    let moved = h.get_by_label(CHART).rect();
    assert!(
        moved.top() < chart.top() - 20.0,
        "the page should scroll: chart top {} → {}",
        chart.top(),
        moved.top()
    );
    assert_eq!(view(&h), before, "the chart's view should not move");
}

#[test]
fn ctrl_and_the_wheel_zoom_the_chart_and_reset_view_brings_the_lab_back() {
    let mut h = lab_window();
    let chart = h.get_by_label(CHART).rect();
    let before = view(&h);
    h.event(Event::ModifiersChanged(Modifiers::COMMAND));
    h.hover_at(chart.center());
    h.run();
    wheel(&h, true, Modifiers::COMMAND);
    h.run();
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run();
    let zoomed = view(&h);
    assert!(
        zoomed.width() < before.width() * 0.99,
        "Ctrl + wheel should zoom in: {} → {}",
        before.width(),
        zoomed.width()
    );
    assert_eq!(
        h.get_by_label(CHART).rect().top(),
        chart.top(),
        "the page stays"
    );
    h.get_by_label("Reset view").click();
    h.run();
    let reset = view(&h);
    assert!(
        (reset.width() - before.width()).abs() < 1e-9,
        "{reset:?} vs {before:?}"
    );
}

/// Meeting mode on a projector's 1280 × 720 and a laptop's 1600 × 1000, in both languages:
/// every column of the table lies inside the window (the last one wraps, its whole text on
/// hover), and "RAM against VRAM" puts the chart on the screen instead of the table.
#[test]
fn meeting_mode_shows_every_column_and_the_chart_one_click_away() {
    use ramvram::i18n::{Msg, tr};
    for (w, h_px) in [(1280.0, 720.0), (1600.0, 1000.0)] {
        for lang in [Lang::En, Lang::Zh] {
            let profile = common::fixture("aws-g5.xlarge");
            let mut app = RamvramApp::with_profile(lang, &profile, Source::Detected);
            app.add_fleet_dir(common::fixture_path("aws-g5.xlarge").parent().unwrap());
            let mut h = common::window::sized(app, [w, h_px]);
            h.run();
            h.get_by_label(tr(lang, Msg::FleetMeetingMode)).click();
            h.run();
            h.run();
            let zoom = h.ctx.zoom_factor();
            assert!(zoom > 1.0, "meeting mode enlarges the text");
            let right_edge = w / zoom;
            for header in ramvram::present::fleet::header(lang) {
                // The table's header row, below the page tabs ("Machine" is a tab too).
                let r = h
                    .get_all_by_label_contains(header)
                    .map(|n| n.rect())
                    .find(|r| r.top() > 70.0 && r.top() < 250.0)
                    .unwrap_or_else(|| panic!("{w}×{h_px} {lang:?}: no column “{header}”"));
                assert!(
                    r.right() <= right_edge + 0.5,
                    "{w}×{h_px} {lang:?}: column “{header}” ends at {} of {right_edge}",
                    r.right()
                );
            }
            let chart_label = tr(lang, Msg::FleetChartA11y);
            assert!(h.query_by_label(chart_label).is_none(), "the table first");
            h.get_by_label(tr(lang, Msg::FleetChartTitle)).click();
            h.run();
            h.run();
            let chart = h.get_by_label(chart_label).rect();
            assert!(
                chart.bottom() <= h_px / zoom + 0.5,
                "the whole chart is on screen"
            );
            assert!(
                h.query_by_label_contains(ramvram::present::fleet::header(lang)[6])
                    .is_none(),
                "the chart replaces the table"
            );
        }
    }
}
