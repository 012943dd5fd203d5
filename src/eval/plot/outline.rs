//! SVG text drawn as the shipped font's glyph outlines, so that an SVG picture looks the same in
//! every viewer, whatever fonts it has.
//!
//! This is a pass over the SVG that plotters' `SVGBackend` wrote: each `<text>` element becomes
//! a `<g>` of `<path>`s, one a glyph with an outline, carrying the text as `aria-label` and
//! `<title>` so it stays findable. A pass rather than a wrapper backend overriding `draw_text`:
//! the backend writes into its buffer as it draws, and plotters' drawing interface has no
//! primitive for a curved, holed outline nor for a group, so a wrapper could only draw the text
//! out of drawing order or re-implement the whole SVG backend. The pass reads elements of a
//! fixed form (plotters is pinned in `Cargo.lock`) and refuses any `<text>` it cannot read.
//!
//! Placement is the one the `<text>` asked for, with the font's own metrics: the size is the
//! `font-size` (pixels an em), the baseline is `y` plus `dy` (`em` is the size, `ex` the font's
//! x-height), `text-anchor` aligns the advance widths (with the font's `kern` pairs, as in the
//! PNG) at `x`, and a `transform` (the rotated name of the y axis) moves to the group. The family,
//! weight and style are not read: there is one face, as in the PNG.

use std::fmt::Write;

use ttf_parser::{Face, GlyphId, OutlineBuilder};

/// The SVG `svg` with every `<text>` element drawn as outlines of the font `font`.
pub(super) fn outline_texts(svg: &str, font: &[u8]) -> Result<String, String> {
    let face = Face::parse(font, 0).map_err(|e| format!("the shipped font: {e}"))?;
    let mut out = String::with_capacity(svg.len() * 2);
    let mut rest = svg;
    while let Some(start) = rest.find("<text ") {
        out.push_str(&rest[..start]);
        let element = &rest[start..];
        let open_end = element
            .find('>')
            .ok_or("an unclosed <text> element".to_string())?;
        let close = element
            .find("</text>")
            .ok_or("a <text> element with no </text>".to_string())?;
        let text = Text::read(
            &element["<text ".len()..open_end],
            &element[open_end + 1..close],
        )?;
        text.write(&face, &mut out);
        rest = &element[close + "</text>".len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// One `<text>` element as plotters wrote it: the text (escaped as in the SVG) and its attributes.
struct Text<'a> {
    escaped: &'a str,
    x: f64,
    y: f64,
    dy: (f64, &'a str),
    anchor: &'a str,
    size: f64,
    fill: &'a str,
    opacity: &'a str,
    transform: Option<&'a str>,
}

impl<'a> Text<'a> {
    fn read(attributes: &'a str, body: &'a str) -> Result<Text<'a>, String> {
        let mut pairs = Vec::new();
        let mut rest = attributes.trim();
        while !rest.is_empty() {
            let (name, after) = rest.split_once("=\"").ok_or_else(|| {
                format!("a <text> attribute `{rest}` not of the form name=\"value\"")
            })?;
            let (value, after) = after
                .split_once('"')
                .ok_or_else(|| format!("an unclosed <text> attribute `{name}`"))?;
            pairs.push((name.trim(), value));
            rest = after.trim_start();
        }
        let find = |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        let get = |name: &str| find(name).ok_or_else(|| format!("a <text> without `{name}`"));
        let number = |name: &str| {
            let value = get(name)?;
            value
                .parse::<f64>()
                .map_err(|_| format!("a <text> `{name}` of `{value}`, not a number"))
        };
        let dy = get("dy")?;
        let unit_at = dy.len().saturating_sub(2);
        let (amount, unit) = dy.split_at(unit_at);
        let amount = amount
            .parse::<f64>()
            .ok()
            .filter(|_| unit == "em" || unit == "ex")
            .ok_or_else(|| format!("a <text> `dy` of `{dy}`, not in em or ex"))?;
        let anchor = get("text-anchor")?;
        if !["start", "middle", "end"].contains(&anchor) {
            return Err(format!("a <text> `text-anchor` of `{anchor}`"));
        }
        Ok(Text {
            escaped: body.trim(),
            x: number("x")?,
            y: number("y")?,
            dy: (amount, unit),
            anchor,
            size: number("font-size")?,
            fill: get("fill")?,
            opacity: find("opacity").unwrap_or("1"),
            transform: find("transform"),
        })
    }

    /// Writes the text as a group of glyph outlines.
    fn write(&self, face: &Face, out: &mut String) {
        let text = unescape(self.escaped);
        let scale = self.size / f64::from(face.units_per_em());
        let kerning = |left: GlyphId, right: GlyphId| {
            (face.tables().kern.iter())
                .flat_map(|kern| kern.subtables)
                .filter(|table| table.horizontal && !table.variable)
                .find_map(|table| table.glyphs_kerning(left, right))
                .unwrap_or(0)
        };
        let mut pen = 0f64;
        let mut glyphs = Vec::new();
        let mut previous = None;
        for c in text.chars() {
            let glyph = face.glyph_index(c).unwrap_or(GlyphId(0));
            if let Some(previous) = previous {
                pen += f64::from(kerning(previous, glyph));
            }
            glyphs.push((glyph, pen));
            pen += f64::from(face.glyph_hor_advance(glyph).unwrap_or(0));
            previous = Some(glyph);
        }
        let width = pen * scale;
        let left = match self.anchor {
            "middle" => self.x - width / 2.0,
            "end" => self.x - width,
            _ => self.x,
        };
        let (amount, unit) = self.dy;
        let unit = match unit {
            "ex" => {
                let x_height = face
                    .x_height()
                    .map_or(0.5, |h| f64::from(h) / f64::from(face.units_per_em()));
                x_height * self.size
            }
            _ => self.size,
        };
        let baseline = self.y + amount * unit;
        let _ = write!(
            out,
            "<g role=\"img\" aria-label=\"{0}\" fill=\"{1}\" opacity=\"{2}\"",
            self.escaped, self.fill, self.opacity
        );
        if let Some(transform) = self.transform {
            let _ = write!(out, " transform=\"{transform}\"");
        }
        let _ = write!(out, "><title>{}</title>", self.escaped);
        for (glyph, at) in glyphs {
            let mut path = Path(String::new());
            if face.outline_glyph(glyph, &mut path).is_none() || path.0.is_empty() {
                continue;
            }
            let _ = write!(
                out,
                "<path transform=\"matrix({s} 0 0 -{s} {x} {y})\" d=\"{d}\"/>",
                s = short(scale, 8),
                x = short(left + at * scale, 3),
                y = short(baseline, 3),
                d = path.0.trim_end(),
            );
        }
        out.push_str("</g>");
    }
}

/// The text of an SVG's escaped text: plotters escapes these five characters and no other.
fn unescape(escaped: &str) -> String {
    escaped
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// A number in an SVG attribute: at most `decimals` decimals, no trailing zeros.
fn short(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// An SVG path's `d`, in font units (y up), built from a glyph's outline.
struct Path(String);

impl OutlineBuilder for Path {
    fn move_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "M{x} {y} ");
    }

    fn line_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "L{x} {y} ");
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let _ = write!(self.0, "Q{x1} {y1} {x} {y} ");
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let _ = write!(self.0, "C{x1} {y1} {x2} {y2} {x} {y} ");
    }

    fn close(&mut self) {
        self.0.push_str("Z ");
    }
}
