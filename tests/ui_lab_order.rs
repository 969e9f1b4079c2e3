//! The Lab machines page's order, driven through AccessKit (egui_kittest): a price list opened
//! in the window prices the order's lines (the same figures as `report --prices`), and one that
//! can't be used is named with its line and field while the prices in use stay.

mod common;

use egui_kittest::kittest::Queryable;
use ramvram::i18n::Lang;
use ramvram::ui::RamvramApp;
use ramvram::ui::app::Source;

#[test]
fn an_opened_price_list_prices_the_lab_order_and_a_bad_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["aws-g5.xlarge", "seed-4090-32g"] {
        std::fs::copy(
            common::fixture_path(f),
            dir.path().join(format!("{f}.json")),
        )
        .unwrap();
    }
    let prices = dir.path().join("prices.csv");
    // seed-4090-32g's set: 2 × 24 GB DDR5 at 79.99 = 159.98.
    std::fs::write(&prices, "item,price,currency\n24 GB DDR5 UDIMM,79.99,USD\n").unwrap();
    let profile = common::fixture("aws-g5.xlarge");
    let mut app = RamvramApp::with_profile(Lang::En, &profile, Source::Detected);
    app.add_fleet_dir(dir.path());
    app.open_prices(&prices);
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "item,price,currency\n24 GB DDR5 UDIMM,lots,USD\n").unwrap();
    app.open_prices(&bad);
    let mut h = common::window::window(app, 3000.0);
    h.run();
    h.get_by_label("What to buy, across the lab");
    h.get_by_label("USD\u{a0}159.98");
    // Both instances are missing from the list: the g5's lines take AWS's typical price
    // (g5.2xlarge USD 1.212 an hour), said as typical, rather than "no price".
    assert_eq!(h.query_all_by_label("no price").count(), 0);
    assert!(h.query_all_by_label_contains("1.212").count() >= 1);
    // The list in use is named beside the button, and in the note on where prices come from.
    h.get_by_label(&format!("Price list: {}", prices.display()));
    h.get_by_label_contains("Prices from the lab's price list");
    h.get_by_label_contains("bad.csv, line 2, field price: “lots” is not a price");
}
