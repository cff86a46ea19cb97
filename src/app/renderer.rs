//! The miniquad renderer: a `RenderFrame`, particles and UI text as instanced quads.
//!
//! One shader draws everything: rectangles, circles (a quad with a smooth disc cut out),
//! textured sprites and text glyphs, one instance each. Consecutive draws that use the same
//! texture form one run and one draw call, so a frame of 100k shapes is a handful of calls.
//! Draw order is the frame's explicit (layer, depth, sequence) order.

use crate::app::atlas::{self, Pixels};
use crate::app::text::{Atlas, Face};
use crate::app::ui::{Label, Ui};
use crate::runtime::particles::Particles;
use ludus_core::{Camera, Color, Filter, ImageDef, RenderFrame, SpriteShape};
use miniquad::*;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct Instance {
    pos: [f32; 2],
    /// Cosine and sine of the rotation about the centre.
    rot: [f32; 2],
    size: [f32; 2],
    uv: [f32; 4],
    color: [u8; 4],
    kind: f32,
}

/// No rotation.
const UPRIGHT: [f32; 2] = [1.0, 0.0];
/// A whole texture (shapes ignore it).
const WHOLE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

const RECT: f32 = 0.0;
const CIRCLE: f32 = 1.0;
const TEXTURED: f32 = 2.0;

#[repr(C)]
struct Uniforms {
    transform: [f32; 4],
}

const VERTEX: &str = r#"#version 100
attribute vec2 corner;
attribute vec2 i_pos;
attribute vec2 i_rot;
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
    vec2 p = i_pos + vec2(q.x * i_rot.x - q.y * i_rot.y, q.x * i_rot.y + q.y * i_rot.x);
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

/// Which texture a run binds. Shapes sample none, so they join any run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tex {
    Any,
    Font,
    Page(u16),
}

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
    scratch: Vec<(Tex, Instance)>,
    upload: Vec<Instance>,
    /// Draw calls issued by the last frame.
    pub calls: usize,
}

fn rgba(c: Color) -> [u8; 4] {
    [c.r, c.g, c.b, c.a]
}

impl Renderer {
    /// `images`: the game's images and their decoded pixels by asset id (`None`: missing,
    /// drawn as a checkerboard).
    pub fn new(
        ctx: &mut dyn RenderingBackend,
        images: (&[ImageDef], &[Option<Pixels>]),
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
                VertexAttribute::with_buffer("i_rot", VertexFormat::Float2, 1),
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
        let atlas = Atlas::new(scale);
        let font = ctx.new_texture_from_rgba8(atlas.width as u16, atlas.height as u16, &atlas.rgba);
        ctx.texture_set_filter(font, FilterMode::Linear, MipmapFilterMode::None);
        let packed = atlas::Atlas::pack(images.0, images.1);
        let pages = upload(ctx, &packed);
        Renderer {
            pipeline,
            quad,
            indices,
            instances,
            capacity,
            white,
            font,
            images: packed,
            pages,
            atlas,
            scratch: Vec::new(),
            upload: Vec::new(),
            calls: 0,
        }
    }

    /// Packs the images again (after a reload), replacing the pages.
    pub fn set_images(
        &mut self,
        ctx: &mut dyn RenderingBackend,
        defs: &[ImageDef],
        pixels: &[Option<Pixels>],
    ) {
        for t in self.pages.drain(..) {
            ctx.delete_texture(t);
        }
        self.images = atlas::Atlas::pack(defs, pixels);
        self.pages = upload(ctx, &self.images);
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
        let (labels, dim, panels) = (&ui.labels, ui.dim, &ui.panels);
        let (w, h) = window::screen_size();
        let bg = frame.background.to_f32();
        ctx.begin_default_pass(PassAction::clear_color(bg[0], bg[1], bg[2], 1.0));
        ctx.apply_pipeline(&self.pipeline);
        self.calls = 0;

        // The world, in its sort order; particles on top.
        self.scratch.clear();
        for d in &frame.draws {
            let (tex, kind, uv) = match d.shape {
                SpriteShape::Rect => (Tex::Any, RECT, WHOLE),
                SpriteShape::Circle => (Tex::Any, CIRCLE, WHOLE),
                SpriteShape::Image(a) => match self.images.uv(a.0, d.frame, d.flip_x) {
                    Some((page, uv)) => (Tex::Page(page), TEXTURED, uv),
                    None => (Tex::Any, RECT, WHOLE),
                },
            };
            self.scratch.push((
                tex,
                Instance {
                    pos: [d.pos.x, d.pos.y],
                    rot: if d.angle == 0.0 {
                        UPRIGHT
                    } else {
                        [d.angle.cos(), d.angle.sin()]
                    },
                    size: [d.size.x, d.size.y],
                    uv,
                    color: rgba(d.color),
                    kind,
                },
            ));
        }
        for p in particles.iter() {
            let fade = (1.0 - p.age / p.life.max(1e-3)).clamp(0.0, 1.0);
            let mut c = rgba(p.color);
            c[3] = (c[3] as f32 * fade) as u8;
            self.scratch.push((
                Tex::Any,
                Instance {
                    pos: [p.pos.x, p.pos.y],
                    rot: UPRIGHT,
                    size: [p.size, p.size],
                    uv: WHOLE,
                    color: c,
                    kind: CIRCLE,
                },
            ));
        }
        let world = Self::world_transform(&frame.camera, w, h);
        self.flush(ctx, world);

        // Screen space: a dimming veil (pause, fault), then text.
        let screen = [2.0 / w, -2.0 / h, -1.0, 1.0];
        if dim > 0.0 {
            self.scratch.push((
                Tex::Any,
                Instance {
                    pos: [w / 2.0, h / 2.0],
                    rot: UPRIGHT,
                    size: [w, h],
                    uv: WHOLE,
                    color: [0, 0, 0, (dim * 255.0) as u8],
                    kind: RECT,
                },
            ));
        }
        for &(x, y, pw, ph, c) in panels.iter() {
            self.scratch.push((
                Tex::Any,
                Instance {
                    pos: [x + pw / 2.0, y + ph / 2.0],
                    rot: UPRIGHT,
                    size: [pw, ph],
                    uv: WHOLE,
                    color: rgba(c),
                    kind: RECT,
                },
            ));
        }
        for label in labels.iter() {
            let face = if label.title {
                &self.atlas.title
            } else {
                &self.atlas.body
            };
            Self::layout(&mut self.scratch, face, &self.atlas, label);
        }
        self.flush(ctx, screen);
        ctx.end_render_pass();
    }

    fn layout(out: &mut Vec<(Tex, Instance)>, face: &Face, atlas: &Atlas, label: &Label) {
        let (aw, ah) = (atlas.width as f32, atlas.height as f32);
        let k = label.scale;
        let mut pen = label.x;
        let baseline = label.y + face.ascent * k;
        for c in label.text.chars() {
            let g = face.glyph(c);
            if g.w > 0 && g.h > 0 {
                let (gw, gh) = (g.w as f32, g.h as f32);
                out.push((
                    Tex::Font,
                    Instance {
                        rot: UPRIGHT,
                        pos: [
                            pen + (g.dx + gw / 2.0) * k,
                            baseline + (g.dy + gh / 2.0) * k,
                        ],
                        size: [gw * k, gh * k],
                        uv: [g.x as f32 / aw, g.y as f32 / ah, gw / aw, gh / ah],
                        color: rgba(label.color),
                        kind: TEXTURED,
                    },
                ));
            }
            pen += g.advance * k;
        }
    }

    /// Issues one instanced draw call per run that needs one texture (split at the buffer
    /// size); shapes need none, so they join the run they are in.
    fn flush(&mut self, ctx: &mut dyn RenderingBackend, transform: [f32; 4]) {
        ctx.apply_uniforms(UniformsSource::table(&Uniforms { transform }));
        let mut start = 0;
        while start < self.scratch.len() {
            let mut tex = self.scratch[start].0;
            let mut end = start + 1;
            while end < self.scratch.len() && end - start < self.capacity {
                match (tex, self.scratch[end].0) {
                    (_, Tex::Any) => {}
                    (Tex::Any, t) => tex = t,
                    (a, b) if a == b => {}
                    _ => break,
                }
                end += 1;
            }
            self.upload.clear();
            self.upload
                .extend(self.scratch[start..end].iter().map(|(_, i)| *i));
            ctx.buffer_update(self.instances, BufferSource::slice(&self.upload));
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
            ctx.draw(0, 6, (end - start) as i32);
            self.calls += 1;
            start = end;
        }
        self.scratch.clear();
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
