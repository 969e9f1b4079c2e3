//! `advise` flags made from the knob table's rows ([`crate::advisor::knobs`]): one clap argument
//! per row, its parser chosen by the row's [`Kind`], and the values given read back as typed
//! [`KnobValue`]s. The clap id of a flag is its row's [`Knob::arg_id`] (`num_workers`), which
//! `--help` finds its text under (`clihelp.advise.num_workers`).

use std::sync::OnceLock;

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::advisor::knobs::{self, Kind, Knob, KnobId, KnobValue, Plan};

/// The clap id and value name (`NUM_WORKERS`) of every row, made once: clap keeps `&'static`
/// names.
fn names(k: &Knob) -> (&'static str, &'static str) {
    static NAMES: OnceLock<Vec<(KnobId, String, String)>> = OnceLock::new();
    let all = NAMES.get_or_init(|| {
        knobs::all()
            .map(|k| (k.id, k.arg_id(), k.arg_id().to_uppercase()))
            .collect()
    });
    all.iter()
        .find(|(id, ..)| *id == k.id)
        .map_or(("", ""), |(_, id, value)| (id.as_str(), value.as_str()))
}

/// The clap argument of row `k`.
pub fn arg(k: &'static Knob) -> Arg {
    let (id, value_name) = names(k);
    let a = Arg::new(id).long(k.flag);
    if k.kind == Kind::Switch {
        return a.action(ArgAction::SetTrue);
    }
    let a = a.value_name(value_name).action(ArgAction::Set);
    match k.kind {
        Kind::U32 => a.value_parser(clap::value_parser!(u32)),
        Kind::U64 => a.value_parser(clap::value_parser!(u64)),
        Kind::Float => a.value_parser(clap::value_parser!(f64)),
        Kind::Bool => a
            .value_parser(clap::value_parser!(bool))
            .num_args(0..=1)
            .default_missing_value("true"),
        Kind::Choice(names) => a.value_parser(PossibleValuesParser::new(names.iter().copied())),
        _ => a.value_parser(move |s: &str| knobs::parse(k, s)),
    }
}

/// The value given for row `k`, typed; `None` when its flag wasn't given (a switch: not on).
pub fn value(m: &ArgMatches, k: &'static Knob) -> Option<KnobValue> {
    let (id, _) = names(k);
    match k.kind {
        Kind::U32 => m
            .get_one::<u32>(id)
            .map(|n| KnobValue::Whole(u64::from(*n))),
        Kind::U64 => m.get_one::<u64>(id).map(|n| KnobValue::Whole(*n)),
        Kind::Float => m.get_one::<f64>(id).map(|f| KnobValue::Float(*f)),
        Kind::Bool => m.get_one::<bool>(id).map(|b| KnobValue::Bool(*b)),
        Kind::Switch => m.get_flag(id).then_some(KnobValue::Bool(true)),
        Kind::Choice(_) => m
            .get_one::<String>(id)
            .and_then(|s| knobs::parse(k, s).ok()),
        _ => m.get_one::<KnobValue>(id).copied(),
    }
}

/// The values given for the knobs of `plan`, in the table's order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Given(pub Vec<(KnobId, KnobValue)>);

impl Given {
    /// The value given for `id`.
    pub fn get(&self, id: KnobId) -> Option<KnobValue> {
        self.0.iter().find(|(k, _)| *k == id).map(|(_, v)| *v)
    }

    /// True when a value was given for `id`.
    pub fn has(&self, id: KnobId) -> bool {
        self.get(id).is_some()
    }

    /// The whole number given for `id`.
    pub fn whole(&self, id: KnobId) -> Option<u64> {
        match self.get(id) {
            Some(KnobValue::Whole(n)) => Some(n),
            _ => None,
        }
    }

    /// The width and height given for `id`.
    pub fn pair(&self, id: KnobId) -> Option<(u32, u32)> {
        match self.get(id) {
            Some(KnobValue::Pair(w, h)) => Some((w, h)),
            _ => None,
        }
    }

    /// The flags given, in the table's order.
    pub fn flags(&self) -> Vec<&'static str> {
        self.0.iter().map(|(id, _)| knobs::flag(*id)).collect()
    }
}

/// The data-loading workload's flags (`#[command(flatten)]` in [`super::workload_args`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkloadKnobs(pub Given);

fn rows(plan: Plan) -> impl Iterator<Item = &'static Knob> {
    knobs::all().filter(move |k| k.plan == plan)
}

impl clap::FromArgMatches for WorkloadKnobs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        Ok(WorkloadKnobs(Given(
            rows(Plan::Workload)
                .filter_map(|k| value(m, k).map(|v| (k.id, v)))
                .collect(),
        )))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for WorkloadKnobs {
    fn augment_args(cmd: Command) -> Command {
        rows(Plan::Workload).fold(cmd, |cmd, k| cmd.arg(arg(k)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
