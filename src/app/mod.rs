//! The platform loop: a miniquad window that pumps input into the runner, calls its frame
//! function once per presentation callback, draws, plays sounds and paces.

pub(crate) mod atlas;
pub(crate) mod audio;
pub(crate) mod batch;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod bench;
pub(crate) mod fit;
pub(crate) mod hud;
pub(crate) mod image;
pub(crate) mod inspector;
pub(crate) mod keys;
pub(crate) mod music;
pub(crate) mod renderer;
pub(crate) mod text;
pub(crate) mod touch;
pub(crate) mod ui;

use crate::app::audio::Audio;
use crate::app::keys::{button_of, key_of};
use crate::app::renderer::Renderer;
use crate::platform::{
    PadEvent, PadSource, QUIT_ON_ESCAPE, Watcher, clock_ns, error, log, wait_ns,
};
use crate::runtime::frames::Line;
use crate::runtime::pads::Pads;
use crate::runtime::{Runner, Stop, UiAction, ui_action};
use ludus_core::{PacerPolicy, Signal};
use miniquad::*;

/// Options of `ludus run` that the window honours.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Scripted input, one line per frame (`--script`).
    pub script: Vec<Line>,
    /// Write the window's pixels to this PNG when quitting (`--screenshot`).
    pub screenshot: Option<std::path::PathBuf>,
    /// Quit after this many frames (`--frames-max`).
    pub max_frames: Option<u64>,
    /// Cap presented frames per second (0: no cap).
    pub fps_cap: u32,
    /// Watch the game folder and reload changed files.
    pub watch: Option<std::path::PathBuf>,
    /// Start with the debug overlay shown.
    pub overlay: bool,
    /// Start with the overlay's profiler page shown.
    pub profiler: bool,
    /// How a changed game is reloaded.
    pub reload: crate::runtime::Reload,
    /// The exit code the window leaves here when it quits: 1 when a playback's stop tick
    /// (`--screenshot-at`) never came or the trace could not be written.
    pub status: std::rc::Rc<std::cell::Cell<i32>>,
}

/// Set once the window is open and the app built (a later panic is not a window problem).
static OPENED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the window was opened (`ludus run` tells a window that failed to open from a bug).
#[cfg_attr(
    target_arch = "wasm32",
    allow(dead_code, reason = "the page has no `ludus run`")
)]
pub fn opened() -> bool {
    OPENED.load(std::sync::atomic::Ordering::Relaxed)
}

pub struct App {
    runner: Runner,
    ctx: Box<dyn RenderingBackend>,
    renderer: Renderer,
    audio: Audio,
    options: RunOptions,
    frames: u64,
    last_ns: Option<u64>,
    watcher: Option<Watcher>,
    /// Gamepads: polled once a frame, their events turned into keys.
    pad_source: PadSource,
    pads: Pads,
    pad_events: Vec<PadEvent>,
}

impl App {
    pub fn new(mut runner: Runner, options: RunOptions) -> App {
        if options.overlay || options.profiler {
            runner.ui_mut().set_overlay(true);
        }
        if options.profiler {
            runner.ui_mut().show_profiler();
        }
        runner.set_reload(options.reload);
        // Background work (flow fields) runs on worker threads in the window.
        runner.use_threads(2);
        runner.set_pacer(PacerPolicy {
            frame_cap_hz: (options.fps_cap > 0).then_some(options.fps_cap),
            ..PacerPolicy::default()
        });
        let mut ctx = window::new_rendering_backend();
        let project = runner.play().project();
        let def = &project.def;
        let renderer = Renderer::new(
            ctx.as_mut(),
            def,
            &image::decode_all(&def.images, &project.assets),
            &project.font_files,
            window::dpi_scale(),
        );
        let mut audio = Audio::new(&def.sounds, &project.sound_files);
        audio.set_music(&def.music, &project.music_files);
        let watcher = options
            .watch
            .as_ref()
            .and_then(|dir| Watcher::new(dir).ok());
        OPENED.store(true, std::sync::atomic::Ordering::Relaxed);
        App {
            runner,
            ctx,
            renderer,
            audio,
            options,
            frames: 0,
            last_ns: None,
            watcher,
            pad_source: PadSource::open(),
            pads: Pads::default(),
            pad_events: Vec::new(),
        }
    }

    fn screenshot(&mut self, path: &std::path::Path) {
        let (w, h) = window::screen_size();
        let (w, h) = (w as usize, h as usize);
        let mut px = vec![0u8; w * h * 4];
        // SAFETY: the GL context is current on this thread during `draw`; the buffer holds
        // exactly w * h RGBA bytes, which is what glReadPixels writes for this format.
        unsafe {
            miniquad::gl::glReadPixels(
                0,
                0,
                w as i32,
                h as i32,
                miniquad::gl::GL_RGBA,
                miniquad::gl::GL_UNSIGNED_BYTE,
                px.as_mut_ptr() as *mut _,
            );
        }
        let mut flipped = Vec::with_capacity(px.len());
        for row in (0..h).rev() {
            flipped.extend_from_slice(&px[row * w * 4..(row + 1) * w * 4]);
        }
        if let Err(e) = crate::app::image::write_png(path, w as u32, h as u32, &flipped) {
            error(&format!(
                "ludus: cannot write the screenshot {}: {e}",
                path.display()
            ));
        }
    }
}

/// Why the window quits after this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quit {
    /// With its screenshot: the last of `--frames-max`, or a playback's stop tick.
    Shot,
    /// Without: a failure, said and left in the exit status.
    Failed,
}

impl App {
    /// Whether the frame just drawn is the last, and how it ends: at `--frames-max`, at a
    /// playback's stop tick, or when the stop tick cannot come or the trace cannot be written.
    fn quit_why(&mut self, stop: Option<Stop>) -> Option<Quit> {
        if let Some(e) = self.runner.take_trace_error() {
            return self.fail(&e);
        }
        let last = self.options.max_frames.is_some_and(|m| self.frames >= m);
        match (stop, last) {
            (Some(Stop::Reached), _) | (None, true) => Some(Quit::Shot),
            (Some(Stop::Missed(why)), _) => self.fail(&format!("no screenshot written: {why}")),
            (Some(Stop::Waiting), true) => self.fail(&format!(
                "no screenshot written: quit after {} frames (--frames-max), before the tick asked for",
                self.frames
            )),
            (_, false) => None,
        }
    }

    /// Says why the window quits on a failure, and leaves exit code 1.
    fn fail(&self, why: &str) -> Option<Quit> {
        error(&format!("ludus: {why}"));
        self.options.status.set(1);
        Some(Quit::Failed)
    }
}

impl EventHandler for App {
    fn update(&mut self) {}

    fn draw(&mut self) {
        let now = clock_ns();
        let dt = self
            .last_ns
            .map_or(0.0, |l| now.saturating_sub(l) as f32 / 1e9);
        self.last_ns = Some(now);
        if let Some(w) = &mut self.watcher
            && w.changed()
        {
            self.runner.reload();
            // A changed PNG, font or WAV keeps its definition: load again whatever changed.
            let project = self.runner.play().project();
            let def = &project.def;
            let pixels = image::decode_all(&def.images, &project.assets);
            self.renderer
                .set_assets(self.ctx.as_mut(), def, &pixels, &project.font_files);
            self.audio.set_sounds(&def.sounds, &project.sound_files);
            self.audio.set_music(&def.music, &project.music_files);
        }
        if let Some(line) = self.options.script.get(self.frames as usize) {
            if let Some(n) = line.rewind {
                self.runner.rewind(n);
            }
            if let Some(at) = line.inspect {
                self.runner.inspect_at(ludus_core::Vec2::new(at[0], at[1]));
            }
            line.pump(self.runner.play_mut().session_mut());
            if line.touches.is_some() {
                // Scripted touches are touches seen: the on-screen controls show.
                self.runner.play_mut().show_touch_controls();
            }
        }
        self.pad_source.poll(&mut self.pad_events);
        self.pads.drive(&self.pad_events, &mut self.runner);
        self.pad_events.clear();
        self.runner.frame(now, dt);
        for line in self.runner.ui_mut().take_fresh_log() {
            log(&line);
        }
        for cue in self.runner.play_mut().take_sounds() {
            self.audio.play(cue);
        }
        if let Some(track) = self.runner.play_mut().take_music() {
            self.audio.music(track);
        }
        self.audio.update();
        let (w, h) = window::screen_size();
        let screen = ui::Screen {
            w,
            h,
            dpi: window::dpi_scale(),
            draw_calls: self.renderer.calls,
            audio: self.audio.enabled(),
        };
        let stop = self.runner.stop();
        // The frame at a playback's stop tick shows the game alone: none of the developer's
        // view that changes with wall-clock time (the overlay, the console).
        let at_stop = stop == Some(Stop::Reached);
        let ui = ui::layout(&self.runner, &self.renderer.atlas, &screen, !at_stop);
        self.renderer.draw(
            self.ctx.as_mut(),
            self.runner.play().drawn(),
            self.runner.play().particles(),
            &ui,
        );
        self.frames += 1;
        let quit = self.quit_why(stop);
        if let Some(path) = self.options.screenshot.clone()
            && quit == Some(Quit::Shot)
        {
            self.screenshot(&path);
        }
        self.ctx.commit_frame();
        if quit.is_some() {
            window::order_quit();
        }
        let after = clock_ns();
        if let Some(target) = self
            .runner
            .play_mut()
            .session_mut()
            .next_frame_target(after, true)
            && target > after
        {
            wait_ns(target - after);
        }
    }

    fn key_down_event(&mut self, key: KeyCode, _mods: KeyMods, repeat: bool) {
        if repeat {
            return;
        }
        self.audio.gesture();
        let Some(key) = key_of(key) else {
            return;
        };
        if ui_action(key) == Some(UiAction::Quit) && QUIT_ON_ESCAPE {
            window::order_quit();
            return;
        }
        self.runner.key_down(key);
    }

    fn key_up_event(&mut self, key: KeyCode, _mods: KeyMods) {
        if let Some(key) = key_of(key) {
            self.runner.key_up(key);
        }
    }

    fn mouse_button_down_event(&mut self, button: MouseButton, x: f32, y: f32) {
        self.audio.gesture();
        // A click or tap is the inspector's while it is shown (F6).
        if button == MouseButton::Left && self.runner.inspect_click((x, y), window::screen_size()) {
            return;
        }
        if let Some(key) = button_of(button) {
            self.runner.key_down(key);
        }
    }

    fn mouse_button_up_event(&mut self, button: MouseButton, _x: f32, _y: f32) {
        if let Some(key) = button_of(button) {
            self.runner.key_up(key);
        }
    }

    fn window_minimized_event(&mut self) {
        self.runner.focus_lost();
        self.runner.play_mut().session_mut().signal(Signal::Hide);
    }

    fn window_restored_event(&mut self) {
        self.runner.play_mut().session_mut().signal(Signal::Show);
    }

    fn mouse_motion_event(&mut self, x: f32, y: f32) {
        let (w, h) = window::screen_size();
        self.runner.play_mut().pointer_at(Some((x, y, w, h)));
    }

    fn mouse_leave_event(&mut self) {
        self.runner.play_mut().pointer_at(None);
    }

    /// Touches are the runner's (on-screen controls, the game's touches, the pointer), never
    /// miniquad's emulated mouse clicks.
    fn touch_event(&mut self, phase: TouchPhase, id: u64, x: f32, y: f32) {
        use crate::runtime::touch::{Phase, Screen};
        let phase = match phase {
            TouchPhase::Started => {
                self.audio.gesture();
                Phase::Down
            }
            TouchPhase::Moved => Phase::Move,
            TouchPhase::Ended => Phase::Up,
            TouchPhase::Cancelled => Phase::Cancel,
        };
        let (w, h) = window::screen_size();
        let dpi = window::dpi_scale();
        self.runner.touch(phase, id, x, y, Screen { w, h, dpi });
    }
}
