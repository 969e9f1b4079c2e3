//! Detecting this machine on a background thread; the result is shown when it arrives.

use std::sync::mpsc;

use super::message::Message;
use super::source::Source;
use super::state::RamvramApp;
use crate::probe;

impl RamvramApp {
    /// Detects this machine on a background thread; the result is shown when it arrives.
    pub fn start_detection(&mut self, ctx: &egui::Context) {
        let (tx, rx) = mpsc::channel();
        let ctx = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("ramvram-detect".into())
            .spawn(move || {
                let _ = tx.send(super::worker::run_caught(probe::detect));
                ctx.request_repaint();
            });
        if spawned.is_ok() {
            self.detecting = Some(rx);
        }
    }

    pub(super) fn poll_detection(&mut self) {
        let Some(rx) = &self.detecting else { return };
        match rx.try_recv() {
            Err(mpsc::TryRecvError::Disconnected) => {
                self.detecting = None;
                self.message = Some(Message::DetectionFailed(String::new()));
            }
            Ok(Err(e)) => {
                self.detecting = None;
                self.message = Some(Message::DetectionFailed(e));
            }
            Ok(Ok(mut profile)) => {
                self.detecting = None;
                // Detecting this machine again keeps what was measured on it in this window.
                if self.source == Source::Detected {
                    if let Some(old) = &self.profile {
                        profile.measurements = old.measurements.clone();
                    }
                }
                self.show_profile(&profile, Source::Detected);
            }
            Err(mpsc::TryRecvError::Empty) => {}
        }
    }
}
