//! Table column widths for the PDF: every column at least as wide as its longest unbreakable
//! piece (a word), with host names, short values ("2048 GiB") and short headers ("内存 : 显存")
//! kept on one line, and the rest shared by the report model's relative widths.

use super::layout::Measure;
use super::ops::CELL_PAD;

/// A header no wider than this (points) stays on one line.
const HEADER_KEEP: f32 = 64.0;
/// A cell without spaces (a host name such as "macbook-pro-m4max-128g") no wider than this
/// (points) stays on one line, although UAX #14 allows a break after its hyphens.
const WORD_KEEP: f32 = 110.0;
/// Any cell no wider than this (points) stays on one line: a number and its unit ("2048 GiB")
/// are not split.
const SHORT_KEEP: f32 = 48.0;

/// Column widths (points) that add up to `total` for a table of `header` and `rows` set at
/// `size` points, `weights` giving each column's share (non-positive or non-finite weights
/// count as 1; cells beyond `weights.len()` columns are ignored).
///
/// A column whose widest cell fits in its share gets just that; the space it leaves goes to the
/// others, by weight. No column is narrower than its longest unbreakable piece (or a short
/// header or host name kept whole) unless these of all columns together are wider than
/// `total` (then all shrink alike).
pub fn column_widths(
    m: &Measure,
    header: &[String],
    rows: &[Vec<String>],
    weights: &[f32],
    total: f32,
    size: f32,
) -> Vec<f32> {
    let n = weights.len();
    let weights: Vec<f32> = weights
        .iter()
        .map(|w| if w.is_finite() && *w > 0.0 { *w } else { 1.0 })
        .collect();
    let pad = 2.0 * CELL_PAD;
    let mut min = vec![pad; n];
    let mut max = vec![pad; n];
    for (i, h) in header.iter().take(n).enumerate() {
        let whole = widest_line(m, h, size);
        let keep = if whole <= HEADER_KEEP {
            whole
        } else {
            m.min_width(h, size)
        };
        min[i] = min[i].max(keep + pad);
        max[i] = max[i].max(whole + pad);
    }
    for row in rows {
        for (i, cell) in row.iter().take(n).enumerate() {
            let whole = widest_line(m, cell, size);
            let word = whole <= WORD_KEEP && !cell.contains(char::is_whitespace);
            let keep = if word || whole <= SHORT_KEEP {
                whole
            } else {
                m.min_width(cell, size)
            };
            min[i] = min[i].max(keep + pad);
            max[i] = max[i].max(whole + pad);
        }
    }
    share(&min, &max, &weights, total)
}

/// The widest line of `text` set without wrapping (its newlines kept; code spans without
/// their backticks, in the monospace font, as drawn).
fn widest_line(m: &Measure, text: &str, size: f32) -> f32 {
    text.split('\n')
        .map(|l| m.marked_width(l, size))
        .fold(0.0, f32::max)
}

/// Splits `total` between columns with content widths `min..=max` by `weights`.
fn share(min: &[f32], max: &[f32], weights: &[f32], total: f32) -> Vec<f32> {
    let n = weights.len();
    if n == 0 {
        return Vec::new();
    }
    let mut w = vec![0.0f32; n];
    let mut settled = vec![false; n];
    // Columns whose widest cell fits in their share take only that, until none does.
    loop {
        let used: f32 = (0..n).filter(|&i| settled[i]).map(|i| w[i]).sum();
        let remaining = (total - used).max(0.0);
        let open: Vec<usize> = (0..n).filter(|&i| !settled[i]).collect();
        if open.is_empty() {
            // Everything fits: the space left over goes to every column by weight.
            let sum: f32 = weights.iter().sum();
            for i in 0..n {
                w[i] += remaining * weights[i] / sum;
            }
            break;
        }
        let sum: f32 = open.iter().map(|&i| weights[i]).sum();
        let mut changed = false;
        for &i in &open {
            if max[i] <= remaining * weights[i] / sum {
                w[i] = max[i];
                settled[i] = true;
                changed = true;
            }
        }
        if !changed {
            for &i in &open {
                w[i] = remaining * weights[i] / sum;
            }
            break;
        }
    }
    // Raise columns below their minimum, taking the difference from those above theirs.
    let deficit: f32 = (0..n).map(|i| (min[i] - w[i]).max(0.0)).sum();
    if deficit > 0.0 {
        let slack: f32 = (0..n).map(|i| (w[i] - min[i]).max(0.0)).sum();
        let take = if slack > 0.0 {
            (deficit / slack).min(1.0)
        } else {
            0.0
        };
        for i in 0..n {
            if w[i] < min[i] {
                w[i] = min[i];
            } else {
                w[i] -= (w[i] - min[i]) * take;
            }
        }
        // Still too wide: every minimum can't fit; shrink all alike.
        let sum: f32 = w.iter().sum();
        if sum > total && sum > 0.0 {
            for x in &mut w {
                *x *= total / sum;
            }
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.01)
    }

    #[test]
    fn short_columns_take_what_they_need_and_the_rest_goes_by_weight() {
        // Shares of 33.3 each: columns 0 (widest cell 20) and 2 (30) fit in theirs and take
        // just that; column 1 gets the 50 left.
        let w = share(
            &[10.0, 10.0, 10.0],
            &[20.0, 200.0, 30.0],
            &[1.0, 1.0, 1.0],
            100.0,
        );
        assert!(close(&w, &[20.0, 50.0, 30.0]), "{w:?}");
    }

    #[test]
    fn minimums_are_kept_by_taking_from_wider_columns() {
        // By weight: 50 and 50; column 1 needs 70 unbroken: it gets 70, column 0 gives 20.
        let w = share(&[10.0, 70.0], &[300.0, 300.0], &[1.0, 1.0], 100.0);
        assert!(close(&w, &[30.0, 70.0]), "{w:?}");
        // Minimums wider than the table: all shrink alike.
        let w = share(&[100.0, 100.0], &[300.0, 300.0], &[1.0, 1.0], 100.0);
        assert!(close(&w, &[50.0, 50.0]), "{w:?}");
    }

    #[test]
    fn a_table_that_fits_spreads_over_the_full_width() {
        let w = share(&[5.0, 5.0], &[10.0, 30.0], &[1.0, 3.0], 80.0);
        assert!(close(&w, &[20.0, 60.0]), "{w:?}");
        assert!(share(&[], &[], &[], 80.0).is_empty());
    }

    #[test]
    fn a_host_name_and_a_short_chinese_header_stay_whole() {
        let m = Measure::new();
        let header = vec!["机器".to_string(), "内存 : 显存".to_string()];
        let rows = vec![vec![
            "macbook-pro-m4max-128g".to_string(),
            "1.33×".to_string(),
        ]];
        let w = column_widths(&m, &header, &rows, &[6.0, 1.0], 200.0, 8.5);
        // UAX #14 would allow "macbook-pro-" | "m4max-128g"; a host name stays whole.
        assert!(
            w[0] >= m.width("macbook-pro-m4max-128g", 8.5) + 2.0 * CELL_PAD,
            "{w:?}"
        );
        assert!(
            w[1] >= m.width("内存 : 显存", 8.5) + 2.0 * CELL_PAD,
            "{w:?}"
        );
        assert!((w.iter().sum::<f32>() - 200.0).abs() < 0.01);
    }
}
