//! The in-window file dialog: a path field, checked like the system's dialog would
//! ([`Request::validate`]), shown where no system dialog can be ([`super::file_dialog`]).

use std::path::PathBuf;

use egui::{Color32, RichText};

use super::file_dialog::{Kind, Request};
use super::paragraph::Paragraph;
use crate::i18n::{Lang, Msg, tr, trf};

/// A path being typed.
#[derive(Clone, Debug, PartialEq)]
pub struct PathPrompt {
    request: Request,
    text: String,
    error: Option<String>,
    focused: bool,
}

/// What the user did with the prompt.
#[derive(Clone, Debug, PartialEq)]
pub enum PromptAnswer {
    /// These paths, checked.
    Chosen(Vec<PathBuf>),
    /// Closed without a path.
    Cancelled,
}

impl PathPrompt {
    /// A prompt for `request`, holding its suggested file name.
    pub fn new(request: Request) -> PathPrompt {
        let text = request.file_name.clone().unwrap_or_default();
        PathPrompt {
            request,
            text,
            error: None,
            focused: false,
        }
    }

    /// The request being answered.
    pub fn request(&self) -> &Request {
        &self.request
    }

    fn submit(&mut self, lang: Lang) -> Option<PromptAnswer> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let home = std::env::var_os("HOME").map(PathBuf::from);
        match self
            .request
            .validate(lang, &self.text, &cwd, home.as_deref())
        {
            Ok(paths) => Some(PromptAnswer::Chosen(paths)),
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    /// Draws the prompt as a window in the middle of the screen; returns the answer once the
    /// user gives one.
    pub fn show(&mut self, ctx: &egui::Context, lang: Lang) -> Option<PromptAnswer> {
        let mut answer = None;
        let mut open = true;
        egui::Window::new(self.request.title.clone())
            .id(egui::Id::unique("ramvram-path-prompt"))
            .collapsible(false)
            .resizable(false)
            .open(&mut open)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .default_width(480.0)
            .show(ctx, |ui| answer = self.contents(ui, lang));
        if !open {
            answer = Some(PromptAnswer::Cancelled);
        }
        answer
    }

    fn contents(&mut self, ui: &mut egui::Ui, lang: Lang) -> Option<PromptAnswer> {
        ui.set_max_width(480.0);
        ui.add(Paragraph::new(
            RichText::new(tr(lang, Msg::DialogNone)).weak(),
        ));
        ui.add_space(6.0);
        let many = self.request.kind == Kind::OpenMany;
        let label = ui.label(tr(lang, Msg::DialogPath));
        let edit = if many {
            egui::TextEdit::multiline(&mut self.text).desired_rows(4)
        } else {
            egui::TextEdit::singleline(&mut self.text)
        };
        let field = ui
            .add(edit.desired_width(f32::INFINITY).hint_text("/home/…"))
            .labelled_by(label.id);
        if !self.focused {
            field.request_focus();
            self.focused = true;
        }
        let cwd = std::env::current_dir().map_or_else(|_| "/".into(), |d| d.display().to_string());
        let mut hint = trf(lang, Msg::DialogHint, &[("dir", &cwd)]);
        if many {
            hint = format!("{hint} {}", tr(lang, Msg::DialogManyHint));
        }
        ui.add(Paragraph::new(RichText::new(hint).weak()));
        if let Some(e) = &self.error {
            ui.add(Paragraph::new(
                RichText::new(e).color(Color32::from_rgb(0xdc, 0x26, 0x26)),
            ));
        }
        let enter = !many && field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let ok = match self.request.kind {
            Kind::Save => Msg::DialogSave,
            Kind::Folder => Msg::DialogChooseFolder,
            Kind::Open | Kind::OpenMany => Msg::DialogOpen,
        };
        let mut answer = None;
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            if ui.button(tr(lang, ok)).clicked() || enter {
                answer = self.submit(lang);
            }
            if ui.button(tr(lang, Msg::DialogCancel)).clicked() {
                answer = Some(PromptAnswer::Cancelled);
            }
        });
        answer
    }
}
