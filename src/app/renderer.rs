//! The miniquad renderer: a `RenderFrame`, particles and UI text as instanced quads.
//!
//! One shader draws everything: rectangles, circles (a quad with a smooth disc cut out),
//! textured sprites and text glyphs, one instance each. Consecutive draws that use the same
//! texture form one run and one draw call, so a frame of 100k shapes is a handful of calls.
//! Draw order is the frame's explicit (layer, depth, sequence) order.

use crate::app::atlas::{self, Pixels};
use crate::app::batch::{Batch, CIRCLE, Instance, RECT, TEXTURED, Tex, WHOLE, rgba};
use crate::app::text::{Atlas, Face};
use crate::app::ui::Ui;
use crate::runtime::particles::Particles;
use ludus_core::{Camera, Color, Filter, GameDef, RenderFrame};
use miniquad::*;
use std::rc::Rc;
use std::sync::Arc;

/// The most bytes of label text drawn in one frame: labels past it wait for a frame with room
/// (many long labels cannot make a frame's instances unbounded).
const MAX_LABEL_GLYPHS: usize = 1 << 16;

#[repr(C)]
struct Uniforms {
    transform: [f32; 4],
}

const VERTEX: &str = r#"#version 100
attribute vec2 corner;
attribute vec2 i_pos;
attribute float i_angle;
attribute vec2 i_size;
attribute vec4 i_uv;
attribute vec4 i_color;
attribute float i_kind;
uniform vec4 transform;
varying vec2 v_local;
varying vec2 v_uv;
varying vec4 v_color;
varying float v_kind;
void main() {
    vec2 q = corner * i_size;
    float c = cos(i_angle);
    float s = sin(i_angle);
    vec2 p = i_pos + vec2(q.x * c - q.y * s, q.x * s + q.y * c);
    gl_Position = vec4(p * transform.xy + transform.zw, 0.0, 1.0);
    v_local = corner * 2.0;
    v_uv = i_uv.xy + (corner + 0.5) * i_uv.zw;
    v_color = i_color / 255.0;
    v_kind = i_kind;
}
"#;

const FRAGMENT: &str = r#"#version 100
precision mediump float;
varying vec2 v_local;
varying vec2 v_uv;
varying vec4 v_color;
varying float v_kind;
uniform sampler2D tex;
void main() {
    vec4 c = v_color;
    if (v_kind > 1.5) {
        c *= texture2D(tex, v_uv);
    } else if (v_kind > 0.5) {
        float d = length(v_local);
        c.a *= clamp((1.0 - d) * 8.0, 0.0, 1.0);
    }
    if (c.a <= 0.0) {
        discard;
    }
    gl_FragColor = c;
}
"#;

pub struct Renderer {
    pipeline: Pipeline,
    quad: BufferId,
    indices: BufferId,
    instances: BufferId,
    capacity: usize,
    white: TextureId,
    font: TextureId,
    /// The game's images, packed.
    images: atlas::Atlas,
    pages: Vec<TextureId>,
    pub atlas: Atlas,
    /// The display's pixel ratio the text atlas was made for.
    scale: f32,
    batch: Batch,
    /// Draw calls issued by the last frame.
    pub calls: usize,
}

impl Renderer {
    /// A renderer of `def`'s game: its images (`pixels` by asset id; one missing or
    /// undecodable is drawn as a checkerboard) and fonts (`fonts`: each font file's bytes by
    /// font id), at the display's pixel ratio `scale`.
    pub fn new(
        ctx: &mut dyn RenderingBackend,
        def: &GameDef,
        pixels: &[Option<Rc<Pixels>>],
        fonts: &[Option<Arc<[u8]>>],
        scale: f32,
    ) -> Renderer {
        let corners: [[f32; 2]; 4] = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]];
        let quad = ctx.new_buffer(
            BufferType::VertexBuffer,
            BufferUsage::Immutable,
            BufferSource::slice(&corners),
        );
        let idx: [u16; 6] = [0, 1, 2, 0, 2, 3];
        let indices = ctx.new_buffer(
            BufferType::IndexBuffer,
            BufferUsage::Immutable,
            BufferSource::slice(&idx),
        );
        let capacity = 1 << 16;
        let instances = ctx.new_buffer(
            BufferType::VertexBuffer,
            BufferUsage::Stream,
            BufferSource::empty::<Instance>(capacity),
        );
        let shader = ctx
            .new_shader(
                ShaderSource::Glsl {
                    vertex: VERTEX,
                    fragment: FRAGMENT,
                },
                ShaderMeta {
                    images: vec!["tex".to_string()],
                    uniforms: UniformBlockLayout {
                        uniforms: vec![UniformDesc::new("transform", UniformType::Float4)],
                    },
                },
            )
            .expect("the built-in shaders compile");
        let pipeline = ctx.new_pipeline(
            &[
                BufferLayout::default(),
                BufferLayout {
                    step_func: VertexStep::PerInstance,
                    ..Default::default()
                },
            ],
            &[
                VertexAttribute::with_buffer("corner", VertexFormat::Float2, 0),
                VertexAttribute::with_buffer("i_pos", VertexFormat::Float2, 1),
                VertexAttribute::with_buffer("i_angle", VertexFormat::Float1, 1),
                VertexAttribute::with_buffer("i_size", VertexFormat::Float2, 1),
                VertexAttribute::with_buffer("i_uv", VertexFormat::Float4, 1),
                VertexAttribute::with_buffer("i_color", VertexFormat::Byte4, 1),
                VertexAttribute::with_buffer("i_kind", VertexFormat::Float1, 1),
            ],
            shader,
            PipelineParams {
                color_blend: Some(BlendState::new(
                    Equation::Add,
                    BlendFactor::Value(BlendValue::SourceAlpha),
                    BlendFactor::OneMinusValue(BlendValue::SourceAlpha),
                )),
                alpha_blend: Some(BlendState::new(
                    Equation::Add,
                    BlendFactor::Zero,
                    BlendFactor::One,
                )),
                ..Default::default()
            },
        );
        let white = ctx.new_texture_from_rgba8(1, 1, &[255, 255, 255, 255]);
        let mut renderer = Renderer {
            pipeline,
            quad,
            indices,
            instances,
            capacity,
            white,
            font: white,
            images: atlas::Atlas::default(),
            pages: Vec::new(),
            atlas: Atlas::new(scale),
            scale,
            batch: Batch::default(),
            calls: 0,
        };
        renderer.set_assets(ctx, def, pixels, fonts);
        renderer
    }

    /// Packs the game's images and makes its fonts' faces (again, after a reload), replacing
    /// the textures.
    pub fn set_assets(
        &mut self,
        ctx: &mut dyn RenderingBackend,
        def: &GameDef,
        pixels: &[Option<Rc<Pixels>>],
        fonts: &[Option<Arc<[u8]>>],
    ) {
        for t in self.pages.drain(..) {
            ctx.delete_texture(t);
        }
        if self.font != self.white {
            ctx.delete_texture(self.font);
        }
        self.images = atlas::Atlas::pack(&def.images, pixels);
        self.pages = upload(ctx, &self.images);
        self.atlas = Atlas::with_fonts(self.scale, &def.fonts, fonts, &def.images);
        let (w, h) = (self.atlas.width as u16, self.atlas.height as u16);
        self.font = ctx.new_texture_from_rgba8(w, h, &self.atlas.rgba);
        ctx.texture_set_filter(self.font, FilterMode::Linear, MipmapFilterMode::None);
    }

    /// World-to-clip transform for `camera` in a `w` x `h` pixel viewport, letterboxed so the
    /// camera's whole view stays visible at its aspect ratio.
    pub fn world_transform(camera: &Camera, w: f32, h: f32) -> [f32; 4] {
        let view = camera.view;
        let scale = (w / view.x.max(1e-3)).min(h / view.y.max(1e-3));
        let sx = 2.0 * scale / w;
        let sy = -2.0 * scale / h;
        [sx, sy, -camera.center.x * sx, -camera.center.y * sy]
    }

    /// Draws one frame into the default framebuffer: the world, then the UI (a dimming
    /// veil, translucent panels, text).
    pub fn draw(
        &mut self,
        ctx: &mut dyn RenderingBackend,
        frame: &RenderFrame,
        particles: &Particles,
        ui: &Ui,
    ) {
        let (w, h) = window::screen_size();
        let bg = frame.background.to_f32();
        ctx.begin_default_pass(PassAction::clear_color(bg[0], bg[1], bg[2], 1.0));
        ctx.apply_pipeline(&self.pipeline);
        self.calls = 0;

        self.fill_world(frame, particles);
        let world = Self::world_transform(&frame.camera, w, h);
        self.flush(ctx, world);

        // Screen space: a dimming veil (pause, fault), then text.
        let screen = [2.0 / w, -2.0 / h, -1.0, 1.0];
        self.fill_screen(ui, w, h);
        self.flush(ctx, screen);
        ctx.end_render_pass();
    }

    /// Fills the batch with the world: its draws in their sort order, particles on top, and
    /// its labels over everything else.
    fn fill_world(&mut self, frame: &RenderFrame, particles: &Particles) {
        self.batch.clear();
        self.batch.world(&frame.draws, &self.images);
        for p in particles.iter() {
            let fade = (1.0 - p.age / p.life.max(1e-3)).clamp(0.0, 1.0);
            let mut c = rgba(p.color);
            c[3] = (c[3] as f32 * fade) as u8;
            self.batch.push(
                Tex::Any,
                Instance {
                    pos: [p.pos.x, p.pos.y],
                    angle: 0.0,
                    size: [p.size, p.size],
                    uv: WHOLE,
                    color: c,
                    kind: CIRCLE,
                },
            );
        }
        // Labels over everything else in the world, in the bundled font scaled to their size,
        // in creation order until the frame's glyph budget is spent.
        let mut glyphs = 0usize;
        for t in &frame.texts {
            glyphs += t.text.len();
            if glyphs > MAX_LABEL_GLYPHS {
                break;
            }
            let face = &self.atlas.faces[self.atlas.face_of(t.font)];
            let k = t.size / face.line_height.max(1.0);
            let width: f32 = t.text.chars().map(|c| face.glyph(c).advance * k).sum();
            let at = (t.pos.x - width / 2.0, t.pos.y - t.size / 2.0, k);
            let textures = (&self.atlas, &self.images);
            Self::layout(
                &mut self.batch,
                face,
                textures,
                &t.text,
                at,
                t.color,
                f32::INFINITY,
            );
        }
    }

    /// Fills the batch with the screen's layer: a dimming veil (pause, fault), the panels, the
    /// discs, the HUD's pictures, then text, in a `w` x `h` pixel window.
    fn fill_screen(&mut self, ui: &Ui, w: f32, h: f32) {
        let (labels, dim, panels) = (&ui.labels, ui.dim, &ui.panels);
        if dim > 0.0 {
            self.batch.push(
                Tex::Any,
                Instance {
                    pos: [w / 2.0, h / 2.0],
                    angle: 0.0,
                    size: [w, h],
                    uv: WHOLE,
                    color: [0, 0, 0, (dim * 255.0) as u8],
                    kind: RECT,
                },
            );
        }
        for &(x, y, pw, ph, c) in panels.iter() {
            self.batch.push(
                Tex::Any,
                Instance {
                    pos: [x + pw / 2.0, y + ph / 2.0],
                    angle: 0.0,
                    size: [pw, ph],
                    uv: WHOLE,
                    color: rgba(c),
                    kind: RECT,
                },
            );
        }
        for &(x, y, r, c) in &ui.discs {
            self.batch.push(
                Tex::Any,
                Instance {
                    pos: [x, y],
                    angle: 0.0,
                    size: [2.0 * r, 2.0 * r],
                    uv: WHOLE,
                    color: rgba(c),
                    kind: CIRCLE,
                },
            );
        }
        for p in &ui.pictures {
            // An image the atlas does not hold (unreadable) is left out.
            if let Some((page, uv)) = self.images.uv(p.image.0, p.frame, false, false) {
                self.batch.push(
                    Tex::Page(page),
                    Instance {
                        pos: [p.x + p.w / 2.0, p.y + p.h / 2.0],
                        angle: 0.0,
                        size: [p.w, p.h],
                        uv,
                        color: [255; 4],
                        kind: TEXTURED,
                    },
                );
            }
        }
        for label in labels.iter() {
            let face = &self.atlas.faces[label.face];
            // Only what is on screen becomes quads: a line far longer or lower than the
            // window (a HUD line showing a huge variable) costs its visible glyphs only.
            if label.y > h || label.y + face.line_height * label.scale < 0.0 {
                continue;
            }
            let at = (label.x, label.y, label.scale);
            let textures = (&self.atlas, &self.images);
            Self::layout(
                &mut self.batch,
                face,
                textures,
                &label.text,
                at,
                label.color,
                w,
            );
        }
    }

    /// Glyph quads of `text` with its top-left at `(x, y)`, glyphs scaled by `k`: from the
    /// text atlas, or for a bitmap font from its image's frames in the image atlas. Glyphs
    /// wholly left of 0 or right of `right` (the screen's width, for screen text) are left out.
    #[allow(clippy::too_many_arguments)]
    fn layout(
        out: &mut Batch,
        face: &Face,
        (atlas, images): (&Atlas, &atlas::Atlas),
        text: &str,
        (x, y, k): (f32, f32, f32),
        color: Color,
        right: f32,
    ) {
        let (aw, ah) = (atlas.width as f32, atlas.height as f32);
        let mut pen = x;
        let baseline = y + face.ascent * k;
        let left = if right.is_finite() {
            0.0
        } else {
            f32::NEG_INFINITY
        };
        for c in text.chars() {
            if pen > right {
                break;
            }
            let g = face.glyph(c);
            if pen + (g.advance.max(g.dx + g.size[0])) * k < left {
                pen += g.advance * k;
                continue;
            }
            let [gw, gh] = g.size;
            let found = match face.sheet {
                None => (g.w > 0 && g.h > 0).then(|| {
                    let (w, h) = (g.w as f32, g.h as f32);
                    (
                        Tex::Font,
                        [g.x as f32 / aw, g.y as f32 / ah, w / aw, h / ah],
                    )
                }),
                Some(image) if gw > 0.0 => images
                    .uv(image, g.x as u16, false, false)
                    .map(|(page, uv)| (Tex::Page(page), uv)),
                Some(_) => None,
            };
            if let Some((tex, uv)) = found {
                out.push(
                    tex,
                    Instance {
                        angle: 0.0,
                        pos: [
                            pen + (g.dx + gw / 2.0) * k,
                            baseline + (g.dy + gh / 2.0) * k,
                        ],
                        size: [gw * k, gh * k],
                        uv,
                        color: rgba(color),
                        kind: TEXTURED,
                    },
                );
            }
            pen += g.advance * k;
        }
    }

    /// Issues one instanced draw call per run that needs one texture (split at the buffer
    /// size); shapes need none, so they join the run they are in.
    fn flush(&mut self, ctx: &mut dyn RenderingBackend, transform: [f32; 4]) {
        ctx.apply_uniforms(UniformsSource::table(&Uniforms { transform }));
        for (tex, run) in self.batch.runs(self.capacity) {
            let count = run.len() as i32;
            let instances = &self.batch.instances[run];
            ctx.buffer_update(self.instances, BufferSource::slice(instances));
            let image = match tex {
                Tex::Any => self.white,
                Tex::Font => self.font,
                Tex::Page(i) => self.pages.get(i as usize).copied().unwrap_or(self.white),
            };
            ctx.apply_bindings(&Bindings {
                vertex_buffers: vec![self.quad, self.instances],
                index_buffer: self.indices,
                images: vec![image],
            });
            ctx.draw(0, 6, count);
            self.calls += 1;
        }
        self.batch.clear();
    }
}

/// One texture per atlas page, filtered as its images ask.
fn upload(ctx: &mut dyn RenderingBackend, packed: &atlas::Atlas) -> Vec<TextureId> {
    packed
        .pages
        .iter()
        .map(|p| {
            let t = ctx.new_texture_from_rgba8(p.width as u16, p.height as u16, &p.rgba);
            let filter = match p.filter {
                Filter::Nearest => FilterMode::Nearest,
                Filter::Linear => FilterMode::Linear,
            };
            ctx.texture_set_filter(t, filter, MipmapFilterMode::None);
            t
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quads of a line of `n` "W"s starting at `x`, clipped at a 1000-pixel screen.
    fn quads(n: usize, x: f32) -> usize {
        let text = Atlas::new(1.0);
        let images = atlas::Atlas::pack(&[], &[]);
        let mut batch = Batch::default();
        let line = "W".repeat(n);
        let face = &text.faces[crate::app::text::BODY];
        let at = (x, 10.0, 2.0);
        Renderer::layout(
            &mut batch,
            face,
            (&text, &images),
            &line,
            at,
            Color::WHITE,
            1000.0,
        );
        batch.instances.len()
    }

    #[test]
    fn screen_text_makes_quads_for_its_visible_glyphs_only() {
        let all = quads(10, 0.0);
        assert_eq!(all, 10, "a short line: every glyph");
        let visible = quads(1_000_000, 0.0);
        assert!(
            (1..200).contains(&visible),
            "a line a million glyphs long: what fits in 1000 pixels, {visible}"
        );
        // Centred and far wider than the screen: the middle only.
        let face_advance = {
            let text = Atlas::new(1.0);
            text.faces[crate::app::text::BODY].glyph('W').advance * 2.0
        };
        let centred = quads(1_000_000, 500.0 - 500_000.0 * face_advance);
        assert!((1..200).contains(&centred), "{centred}");
    }
}
