//! Saving the pages' inputs in the settings file when the user changes them, and telling a
//! page whether its inputs are still the ones restored at start.

use super::remembered::{Remembered, Restored};
use super::state::RamvramApp;

impl RamvramApp {
    /// Saves the inputs in the settings file when they change (the real window; tests don't):
    /// once a drag has ended, not every frame of it. A failed write is reported once, not
    /// retried every frame.
    pub fn remember_inputs(&mut self) {
        self.remember_inputs = true;
    }

    fn current_inputs(&self) -> Remembered {
        Remembered {
            workload: self.scenario.workload.clone(),
            training: self.scenario.training.plan.clone(),
            include_training: self.scenario.include.training,
            include_workload: self.scenario.include.workload,
        }
    }

    /// Whether the page's inputs are still the ones restored at start (the page says so).
    pub fn restored_inputs(&self) -> Restored {
        Restored {
            workload: self.restored.workload
                && self.scenario.workload == self.saved_inputs.workload,
            training: self.restored.training
                && self.scenario.training.plan == self.saved_inputs.training,
        }
    }

    pub(super) fn save_inputs(&mut self, ctx: &egui::Context) {
        let now = self.current_inputs();
        if !self.remember_inputs || self.saved_inputs == now || ctx.input(|i| i.pointer.any_down())
        {
            return;
        }
        // Once the user changes something, nothing on screen is "as restored" any more.
        self.restored = Restored::default();
        self.settings.workload = Some(now.workload.clone());
        self.settings.training = Some(now.training.clone());
        self.settings.include_training = now.include_training;
        self.settings.include_workload = now.include_workload;
        self.saved_inputs = now;
        if let Err(problem) = self.settings.save() {
            self.notify(problem);
        }
    }
}
