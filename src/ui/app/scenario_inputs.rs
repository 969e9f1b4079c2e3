//! The scenario as the window holds it: what the Training and Data loading pages show, the model
//! to serve a scenario file brought, and which of them the user included. The window's one
//! source of the [`Scenario`] it assesses and exports ([`WindowScenario::assessed`]) and of the
//! one its pages preview ([`WindowScenario::on_pages`]).

use crate::advisor::Scenario;
use crate::advisor::inference::InferencePlan;
use crate::advisor::workload::Workload;
use crate::present::inputs::LeftOut;
use crate::ui::panels::training::TrainingForm;

/// Which of the pages' inputs are part of the assessment and the report: the user ticked
/// "include", or opened a scenario, model or dataset file. Looking at a page, or changing an
/// input on it, is not including it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Included {
    /// The Training page's plan.
    pub training: bool,
    /// The Data loading page's workload.
    pub workload: bool,
}

/// The window's scenario: the pages' inputs and which of them are included.
pub struct WindowScenario {
    /// The Training page's form, with the plan being edited.
    pub training: TrainingForm,
    /// The Data loading page's workload.
    pub workload: Workload,
    /// A model to serve, from a scenario file (the window has no editor for it yet): always
    /// included while set.
    pub inference: Option<InferencePlan>,
    /// Which inputs are included.
    pub include: Included,
}

impl WindowScenario {
    /// What is assessed and exported: the included inputs only.
    pub fn assessed(&self) -> Scenario {
        Scenario {
            training: self.include.training.then(|| self.training.plan.clone()),
            workload: self.include.workload.then(|| self.workload.clone()),
            inference: self.inference.clone(),
            ..Scenario::NONE
        }
    }

    /// What the pages show, included or not: previewed on the Training and Data loading pages,
    /// and saved as a scenario file ("Save scenario…"). Never exported as an assessment.
    pub fn on_pages(&self) -> Scenario {
        Scenario {
            training: Some(self.training.plan.clone()),
            workload: Some(self.workload.clone()),
            inference: self.inference.clone(),
            ..Scenario::NONE
        }
    }

    /// The inputs on the pages that the assessment leaves out (the export dialog lists them).
    pub fn left_out(&self) -> LeftOut {
        LeftOut {
            training: !self.include.training,
            workload: !self.include.workload,
        }
    }

    /// Takes what a scenario file holds: each part it has replaces the page's and is included;
    /// parts it lacks leave the pages as they are.
    pub fn open(&mut self, s: Scenario) {
        if let Some(w) = s.workload {
            self.workload = w;
            self.include.workload = true;
        }
        if let Some(t) = s.training {
            self.training = TrainingForm::new(t);
            self.include.training = true;
        }
        if s.inference.is_some() {
            self.inference = s.inference;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window() -> WindowScenario {
        WindowScenario {
            training: TrainingForm::new(crate::advisor::defaults::first_plan()),
            workload: crate::advisor::workload::presets::preset("imagenet-resnet50").unwrap(),
            inference: None,
            include: Included::default(),
        }
    }

    #[test]
    fn only_what_is_included_is_assessed_and_the_rest_is_left_out() {
        let mut w = window();
        assert_eq!(w.assessed(), Scenario::NONE);
        assert_eq!(
            w.left_out(),
            LeftOut {
                training: true,
                workload: true
            }
        );
        // The pages still show both, whatever is included.
        let pages = w.on_pages();
        assert!(pages.training.is_some() && pages.workload.is_some());
        w.include.workload = true;
        let a = w.assessed();
        assert_eq!(a.workload, Some(w.workload.clone()));
        assert_eq!(a.training, None);
        assert!(!w.left_out().workload && w.left_out().training);
    }

    #[test]
    fn a_scenario_file_replaces_and_includes_only_the_parts_it_has() {
        let mut w = window();
        let before = w.workload.clone();
        let mut plan = crate::advisor::defaults::first_plan();
        plan.gpus_per_node = 4;
        plan.preset = None;
        w.open(Scenario {
            training: Some(plan.clone()),
            ..Scenario::NONE
        });
        assert_eq!(w.training.plan, plan);
        assert!(w.include.training);
        // No workload in the file: the page keeps its own, still left out.
        assert_eq!(w.workload, before);
        assert!(!w.include.workload);
        assert_eq!(w.assessed().training, Some(plan));
    }
}
