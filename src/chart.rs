//! Geometry of the lab chart (RAM against VRAM), shared by the window and the PDF so both show
//! the same picture: whether the axes are logarithmic, their ranges and ticks, and where each
//! machine's name goes without covering another name or point.
//!
//! Pure functions of numbers: no egui, no plotters.

/// One axis of the chart, in data units (GiB).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    /// Logarithmic (base 10) rather than linear.
    pub log: bool,
    /// Lowest value shown (> 0 when `log`).
    pub lo: f64,
    /// Highest value shown.
    pub hi: f64,
}

/// The "nice" mantissas of log ticks: 1, 2 and 5 in every decade.
const NICE: [f64; 3] = [1.0, 2.0, 5.0];

/// A span of values is drawn on log axes once its largest value is this many times its
/// smallest (about an order of magnitude): below that, linear axes read more easily.
pub const LOG_SPAN: f64 = 8.0;

impl Axis {
    /// Maps a value to the position along the axis, 0 at `lo` and 1 at `hi` (outside 0..1 when
    /// the value is outside the range; non-positive values on a log axis map below 0).
    pub fn unit(&self, v: f64) -> f64 {
        let (a, b, x) = if self.log {
            (
                self.lo.log10(),
                self.hi.log10(),
                v.max(f64::MIN_POSITIVE).log10(),
            )
        } else {
            (self.lo, self.hi, v)
        };
        if b > a { (x - a) / (b - a) } else { 0.0 }
    }

    /// The value the plot coordinate `c` stands for: the window plots `log10(v)` on a log axis.
    pub fn from_plot(&self, c: f64) -> f64 {
        if self.log { 10f64.powf(c) } else { c }
    }

    /// The plot coordinate of a value: `log10(v)` on a log axis, `v` on a linear one.
    pub fn to_plot(&self, v: f64) -> f64 {
        if self.log {
            v.max(f64::MIN_POSITIVE).log10()
        } else {
            v
        }
    }

    /// Tick values inside the range, with `true` for the major ones (a power of ten on a log
    /// axis, every tick on a linear one). Log axes tick at 1, 2 and 5 of each decade; linear
    /// axes at multiples of a 1, 2 or 5 step giving about six ticks.
    pub fn ticks(&self) -> Vec<(f64, bool)> {
        let mut out = Vec::new();
        if !(self.lo.is_finite() && self.hi.is_finite() && self.hi > self.lo) {
            return out;
        }
        if self.log {
            if self.lo <= 0.0 {
                return out;
            }
            let first = self.lo.log10().floor() as i32;
            let last = self.hi.log10().ceil() as i32;
            for e in first..=last.min(first + 30) {
                for m in NICE {
                    let v = m * 10f64.powi(e);
                    if v >= self.lo * (1.0 - 1e-9) && v <= self.hi * (1.0 + 1e-9) {
                        out.push((v, m == 1.0));
                    }
                }
            }
        } else {
            let step = nice_step((self.hi - self.lo) / 6.0);
            let mut v = (self.lo / step).ceil() * step;
            while v <= self.hi + step * 1e-9 && out.len() < 100 {
                out.push((v, true));
                v += step;
            }
        }
        out
    }
}

/// The axes for machines at `(vram, ram)` GiB: both logarithmic when the values span about an
/// order of magnitude or more ([`LOG_SPAN`]), both linear otherwise, so the lines RAM = k ×
/// VRAM stay straight. Log ranges run from a 1-2-5 value below the smallest to one above the
/// largest; linear ones from 0. With no points: 0–32 GiB VRAM, 0–64 GiB RAM.
pub fn fleet_axes(points: &[(f64, f64)]) -> (Axis, Axis) {
    let valid: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    let (xs, ys): (Vec<f64>, Vec<f64>) = valid.iter().copied().unzip();
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let all: Vec<f64> = xs.iter().chain(&ys).copied().collect();
    let positive = !all.is_empty() && min(&all) > 0.0;
    if positive && max(&all) / min(&all) >= LOG_SPAN {
        let axis = |v: &[f64]| Axis {
            log: true,
            lo: nice_below(min(v) / 1.25),
            hi: nice_above(max(v) * 1.25),
        };
        return (axis(&xs), axis(&ys));
    }
    let max_x = if xs.is_empty() {
        32.0
    } else {
        max(&xs).max(1.0) * 1.15
    };
    let max_y = if ys.is_empty() {
        64.0
    } else {
        max(&ys).max(max_x) * 1.15
    };
    (
        Axis {
            log: false,
            lo: 0.0,
            hi: max_x,
        },
        Axis {
            log: false,
            lo: 0.0,
            hi: max_y,
        },
    )
}

/// The largest 1-2-5 value at or below `v` (`v` > 0).
fn nice_below(v: f64) -> f64 {
    let e = v.log10().floor();
    let p = 10f64.powf(e);
    NICE.iter()
        .rev()
        .map(|m| m * p)
        .find(|x| *x <= v * (1.0 + 1e-9))
        .unwrap_or(p)
}

/// The smallest 1-2-5 value at or above `v` (`v` > 0).
fn nice_above(v: f64) -> f64 {
    let e = v.log10().floor();
    let p = 10f64.powf(e);
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|x| *x >= v * (1.0 - 1e-9))
        .unwrap_or(10.0 * p)
}

/// 1, 2 or 5 × 10^n at or above `raw` (1 for a non-positive or non-finite `raw`).
pub fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    nice_above(raw)
}

/// A tick's label: whole numbers without decimals ("16", "2000"), smaller ones with what they
/// need ("0.5").
pub fn tick_label(v: f64) -> String {
    if v >= 1.0 || v == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A rectangle in screen units, y growing downwards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Box2 {
    /// Left.
    pub x0: f32,
    /// Top.
    pub y0: f32,
    /// Right.
    pub x1: f32,
    /// Bottom.
    pub y1: f32,
}

impl Box2 {
    /// The box of `size` whose top-left corner is at `(x, y)`.
    pub fn at(x: f32, y: f32, size: [f32; 2]) -> Box2 {
        Box2 {
            x0: x,
            y0: y,
            x1: x + size[0],
            y1: y + size[1],
        }
    }

    /// The square around a point of radius `r`.
    pub fn around(p: [f32; 2], r: f32) -> Box2 {
        Box2 {
            x0: p[0] - r,
            y0: p[1] - r,
            x1: p[0] + r,
            y1: p[1] + r,
        }
    }

    /// The two boxes share some area.
    pub fn overlaps(&self, o: &Box2) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    /// `self` lies entirely inside `o`.
    pub fn inside(&self, o: &Box2) -> bool {
        self.x0 >= o.x0 && self.x1 <= o.x1 && self.y0 >= o.y0 && self.y1 <= o.y1
    }
}

/// Places a label of `sizes[i]` next to each point `points[i]` (screen units), trying the
/// right, left, top and bottom sides and then the corners, at `gap` and then further out, and
/// keeping the first spot that stays inside `bounds` and covers no other label, no point (of
/// radius `radius`) and no box in `obstacles`. A label with no free spot is `None` (the name
/// is still in the table and on hover). Labels are placed in the order given.
pub fn place_labels(
    points: &[[f32; 2]],
    sizes: &[[f32; 2]],
    radius: f32,
    gap: f32,
    bounds: Box2,
    obstacles: &[Box2],
) -> Vec<Option<Box2>> {
    let mut taken: Vec<Box2> = obstacles.to_vec();
    taken.extend(points.iter().map(|p| Box2::around(*p, radius)));
    let mut out = Vec::with_capacity(points.len());
    for (p, size) in points.iter().zip(sizes) {
        let [w, h] = *size;
        let mut found = None;
        'search: for step in [1.0f32, 2.5, 4.5] {
            let d = radius + gap * step;
            let candidates = [
                (p[0] + d, p[1] - h / 2.0),               // right
                (p[0] - d - w, p[1] - h / 2.0),           // left
                (p[0] - w / 2.0, p[1] - d - h),           // above
                (p[0] - w / 2.0, p[1] + d),               // below
                (p[0] + d * 0.7, p[1] - d * 0.7 - h),     // upper right
                (p[0] + d * 0.7, p[1] + d * 0.7),         // lower right
                (p[0] - d * 0.7 - w, p[1] - d * 0.7 - h), // upper left
                (p[0] - d * 0.7 - w, p[1] + d * 0.7),     // lower left
            ];
            for (x, y) in candidates {
                let b = Box2::at(x, y, [w, h]);
                if b.inside(&bounds) && !taken.iter().any(|t| t.overlaps(&b)) {
                    found = Some(b);
                    break 'search;
                }
            }
        }
        if let Some(b) = found {
            taken.push(b);
        }
        out.push(found);
    }
    out
}

/// Machines at the same point, grouped: each distinct `(vram, ram)` once, with the indices of
/// the machines there, in the order they first appear.
pub fn group_same_points(points: &[(f64, f64)]) -> Vec<((f64, f64), Vec<usize>)> {
    let mut groups: Vec<((f64, f64), Vec<usize>)> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        match groups.iter_mut().find(|(q, _)| q == p) {
            Some((_, v)) => v.push(i),
            None => groups.push((*p, vec![i])),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_spanning_orders_of_magnitude_gets_log_axes() {
        // 10 GiB to 640 GiB of VRAM, 15 GiB to 2 TiB of RAM (the fixtures' lab).
        let (x, y) = fleet_axes(&[(10.0, 32.0), (640.0, 2048.0), (16.0, 15.0)]);
        assert!(x.log && y.log);
        // 10 / 1.25 = 8 → 5; 640 × 1.25 = 800 → 1000; 15 / 1.25 = 12 → 10; 2560 → 5000.
        assert_eq!((x.lo, x.hi), (5.0, 1000.0));
        assert_eq!((y.lo, y.hi), (10.0, 5000.0));
        let ticks: Vec<f64> = x.ticks().iter().map(|t| t.0).collect();
        assert_eq!(ticks, [5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0]);
        assert_eq!(x.ticks().iter().filter(|t| t.1).count(), 3);
        assert!((x.unit(100.0) - (2.0 - 5f64.log10()) / (3.0 - 5f64.log10())).abs() < 1e-12);
    }

    #[test]
    fn a_narrow_lab_gets_linear_axes_from_zero() {
        let (x, y) = fleet_axes(&[(24.0, 32.0), (48.0, 128.0)]);
        assert!(!x.log && !y.log);
        assert_eq!(x.lo, 0.0);
        assert!((x.hi - 48.0 * 1.15).abs() < 1e-9);
        assert!((y.hi - 128.0 * 1.15).abs() < 1e-9);
        // 55.2 / 6 = 9.2 → a step of 10.
        let ticks: Vec<f64> = x.ticks().iter().map(|t| t.0).collect();
        assert_eq!(ticks, [0.0, 10.0, 20.0, 30.0, 40.0, 50.0]);
    }

    #[test]
    fn odd_points_never_panic() {
        for pts in [
            vec![],
            vec![(0.0, 0.0)],
            vec![(f64::NAN, 1.0)],
            vec![(1e-300, 1e300)],
        ] {
            let (x, y) = fleet_axes(&pts);
            let _ = (x.ticks(), y.ticks(), x.unit(1.0), y.unit(-1.0));
        }
        assert_eq!(tick_label(0.5), "0.5");
        assert_eq!(tick_label(2000.0), "2000");
    }

    #[test]
    fn labels_avoid_each_other_points_and_the_edges() {
        let bounds = Box2 {
            x0: 0.0,
            y0: 0.0,
            x1: 200.0,
            y1: 100.0,
        };
        // Two machines at the same spot, one near the right edge.
        let points = [[50.0, 50.0], [50.0, 50.0], [195.0, 50.0]];
        let sizes = [[40.0, 10.0]; 3];
        let placed = place_labels(&points, &sizes, 4.0, 3.0, bounds, &[]);
        let boxes: Vec<Box2> = placed.iter().map(|b| b.expect("room for each")).collect();
        // The first goes right of its point, the second left of it (right is taken).
        assert_eq!(boxes[0].x0, 50.0 + 4.0 + 3.0);
        assert_eq!(boxes[1].x1, 50.0 - 4.0 - 3.0);
        // Near the right edge the label goes left.
        assert!(boxes[2].x1 <= 195.0);
        for (i, a) in boxes.iter().enumerate() {
            assert!(a.inside(&bounds));
            for b in &boxes[i + 1..] {
                assert!(!a.overlaps(b));
            }
        }
        // No room at all: no label.
        let tiny = Box2 {
            x0: 0.0,
            y0: 0.0,
            x1: 10.0,
            y1: 10.0,
        };
        assert_eq!(
            place_labels(&[[5.0, 5.0]], &[[40.0, 10.0]], 4.0, 3.0, tiny, &[]),
            [None]
        );
    }

    #[test]
    fn same_points_are_grouped_in_order() {
        let g = group_same_points(&[(640.0, 2048.0), (24.0, 16.0), (640.0, 2048.0)]);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].1, [0, 2]);
        assert_eq!(g[1].1, [1]);
    }
}
