//! Pictures: their size (the default, and `size W x H`), and their text, read from the SVG: a
//! title naming the game and the range, the names of the axes, tick labels, and for a table a
//! colour bar. The P-positions drawn are counted against a brute force written here. An SVG's
//! text is drawn as glyph outlines of the shipped font, one `<path>` a glyph, in a group that
//! carries the text: the glyphs are counted against the font, read here with `ttf-parser`.

use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn run(source: &str) -> String {
    grundy::run_to_string("pictures", source).unwrap_or_else(|e| panic!("{source}:\n{e}"))
}

/// The texts of an SVG, in order, each with its group of outlines: an SVG has no `<text>` and
/// names no font, each text is a `<g aria-label="TEXT">` whose `<title>` is the text too.
fn texts(svg: &str) -> Vec<String> {
    texts_and_glyphs(svg).into_iter().map(|(t, _)| t).collect()
}

/// The texts of an SVG (as escaped in it), each with the number of `<path>`s drawing it.
fn texts_and_glyphs(svg: &str) -> Vec<(String, usize)> {
    assert!(!svg.contains("<text"), "a <text> element is left");
    assert!(!svg.contains("font-family"), "a font family is named");
    svg.split("<g role=\"img\" aria-label=\"")
        .skip(1)
        .map(|t| {
            let label = &t[..t.find('"').unwrap()];
            let group = &t[..t.find("</g>").unwrap()];
            let title = &group[group.find("<title>").unwrap() + 7..group.find("</title>").unwrap()];
            assert_eq!(label, title);
            (label.to_string(), group.matches("<path").count())
        })
        .collect()
}

/// The shipped font, read from its file.
fn font() -> ttf_parser::Face<'static> {
    static FILE: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
    ttf_parser::Face::parse(FILE, 0).unwrap()
}

/// How many glyphs of the shipped font with an outline draw `text`, read from the font file.
fn outlined_glyphs(text: &str) -> usize {
    let face = font();
    text.chars()
        .filter(|&c| {
            let glyph = face.glyph_index(c).unwrap();
            let outline = face.outline_glyph(glyph, &mut NoPath);
            outline.is_some_and(|b| b.width() > 0 && b.height() > 0)
        })
        .count()
}

/// An outline builder that keeps nothing: only the outline's box is wanted.
struct NoPath;

impl ttf_parser::OutlineBuilder for NoPath {
    fn move_to(&mut self, _: f32, _: f32) {}
    fn line_to(&mut self, _: f32, _: f32) {}
    fn quad_to(&mut self, _: f32, _: f32, _: f32, _: f32) {}
    fn curve_to(&mut self, _: f32, _: f32, _: f32, _: f32, _: f32, _: f32) {}
    fn close(&mut self) {}
}

fn svg_size(svg: &str) -> (String, String) {
    let head = &svg[..svg.find('>').unwrap()];
    let attribute = |name: &str| {
        let at = head.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        head[at..at + head[at..].find('"').unwrap()].to_string()
    };
    (attribute("width"), attribute("height"))
}

fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let side = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (side(16), side(20))
}

/// Wythoff's game by brute force: how many P-positions in `0..rows` x `0..cols`.
fn wythoff_p_positions(rows: usize, cols: usize) -> usize {
    let n = rows.max(cols);
    let mut value = vec![vec![0u64; n]; n];
    let mut zeros = 0;
    for a in 0..n {
        for b in 0..n {
            let mut seen = std::collections::BTreeSet::new();
            seen.extend((0..a).map(|x| value[x][b]));
            seen.extend((0..b).map(|y| value[a][y]));
            seen.extend((1..=a.min(b)).map(|k| value[a - k][b - k]));
            value[a][b] = (0..).find(|v| !seen.contains(v)).unwrap();
            if value[a][b] == 0 && a < rows && b < cols {
                zeros += 1;
            }
        }
    }
    zeros
}

#[test]
fn a_sequence_plot_has_a_title_axes_and_ticks() {
    let svg_path = scratch("kayles.svg");
    let answer = run(&format!(
        "plot sequence kayles 0..=100 to {:?}",
        svg_path.display().to_string()
    ));
    assert!(answer.contains("(1200 x 600 pixels)"), "{answer}");
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert_eq!(svg_size(&svg), ("1200".into(), "600".into()));
    let texts = texts(&svg);
    for wanted in [
        "kayles: Grundy values of heaps 0..=100",
        "heap n",
        "Grundy value",
        "0",
        "50",
        "100",
        "8",
    ] {
        assert!(
            texts.iter().any(|t| t == wanted),
            "no {wanted:?} in {texts:?}"
        );
    }
    assert_eq!(svg.matches("<circle").count(), 101);
    // The title in glyphs: one path for each glyph with an outline (not the spaces).
    let title = "kayles: Grundy values of heaps 0..=100";
    let glyphs = texts_and_glyphs(&svg)
        .into_iter()
        .find(|(t, _)| t == title)
        .unwrap()
        .1;
    assert_eq!(glyphs, outlined_glyphs(title));
    assert_eq!(glyphs, title.chars().filter(|c| *c != ' ').count());
    // Centred on the picture: the first glyph starts as far left of 600 as the advances of
    // the whole title, read from the font (kerning aside, under a pixel here), reach right of it.
    let group = &svg[svg.find(&format!("aria-label=\"{title}\"")).unwrap()..];
    let matrix = &group[group.find("matrix(").unwrap() + 7..];
    let numbers: Vec<f64> = matrix[..matrix.find(')').unwrap()]
        .split(' ')
        .map(|n| n.parse().unwrap())
        .collect();
    let face = font();
    let advance: f64 = (title.chars())
        .map(|c| {
            f64::from(
                face.glyph_hor_advance(face.glyph_index(c).unwrap())
                    .unwrap(),
            )
        })
        .sum();
    let width = advance * numbers[0];
    assert!(
        (600.0 - numbers[4] - width / 2.0).abs() < 1.5,
        "{numbers:?}, {width}"
    );
}

#[test]
fn size_sets_the_pixels_of_png_and_svg_alike() {
    let png = scratch("sized.png");
    let svg = scratch("sized.svg");
    let answer = run(&format!(
        "let w = 800\nplot sequence dawson 0..=300 to {:?} size w x w / 2\n\
         plot table wythoff 0..20, 0..30 to {:?} size 1600 x 900",
        png.display().to_string(),
        svg.display().to_string()
    ));
    assert!(answer.contains("(800 x 400 pixels)") && answer.contains("(1600 x 900 pixels)"));
    assert_eq!(png_size(&png), (800, 400));
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(svg_size(&svg), ("1600".into(), "900".into()));
    let refused = grundy::run_to_string(
        "pictures",
        &format!(
            "plot sequence nim 0..9 to {:?} size 10 x 10",
            png.display().to_string()
        ),
    )
    .unwrap_err();
    assert!(
        refused.contains("a side is 200 to 8192 pixels"),
        "{refused}"
    );
    let refused = grundy::run_to_string(
        "pictures",
        "plot sequence nim 0..9 to \"x.png\" size true x 10",
    )
    .unwrap_err();
    assert!(refused.contains("grundy::type_mismatch"), "{refused}");
}

#[test]
fn a_table_plot_has_axes_and_a_colour_bar() {
    let svg_path = scratch("wythoff.svg");
    let png_path = scratch("wythoff.png");
    let answer = run(&format!(
        "plot table wythoff 0..41, 0..40 to {:?}\nplot table wythoff 0..41, 0..40 to {:?}",
        svg_path.display().to_string(),
        png_path.display().to_string()
    ));
    // 41 x 40 cells of 800 / 41 = 19 pixels, with room for the title, axes and colour bar.
    assert!(answer.contains("(999 x 890 pixels)"), "{answer}");
    assert_eq!(png_size(&png_path), (999, 890));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert_eq!(svg_size(&svg), ("999".into(), "890".into()));
    let texts = texts(&svg);
    for wanted in [
        "wythoff: Grundy values, a = 0..=40, b = 0..=39",
        "a (first counter)",
        "b (second counter)",
        "value",
        "0",
        "20",
        "40",
    ] {
        assert!(
            texts.iter().any(|t| t == wanted),
            "no {wanted:?} in {texts:?}"
        );
    }
    // Every P-position is a black cell, and the colour bar starts with one black band.
    let cells: Vec<&str> = svg.split("<rect").skip(1).collect();
    let black_cells = cells
        .iter()
        .filter(|r| r[..r.find('>').unwrap()].contains("fill=\"#000000\""))
        .count();
    assert_eq!(black_cells, wythoff_p_positions(41, 40) + 1);
}

#[test]
fn pictures_of_expressions_name_the_expression_and_its_indices() {
    let file = scratch("expression_sequence.svg");
    run(&format!(
        "plot sequence n % 7 for n in 3..=60 to \"{}\"",
        file.display()
    ));
    let svg = std::fs::read_to_string(&file).unwrap();
    let shown = texts(&svg);
    assert!(
        shown.contains(&"n % 7, n = 3..=60".to_string()),
        "{shown:?}"
    );
    assert!(shown.contains(&"n".to_string()) && shown.contains(&"value".to_string()));
    // One point a value.
    assert_eq!(svg.matches("<circle").count(), 58);
    let file = scratch("expression_table.png");
    let out = run(&format!(
        "plot table a * b for a in 0..10, b in 0..20 to \"{}\"",
        file.display()
    ));
    assert!(out.starts_with("wrote"), "{out}");
    assert!(png_size(&file).0 > 0);
    let file = scratch("expression_table.svg");
    run(&format!(
        "plot table a * b for a in 0..10, b in 0..20 to \"{}\"",
        file.display()
    ));
    let shown = texts(&std::fs::read_to_string(&file).unwrap());
    assert!(
        shown.contains(&"a * b, a = 0..=9, b = 0..=19".to_string()),
        "{shown:?}"
    );
    let negative = grundy::run_to_string(
        "pictures",
        &format!(
            "plot sequence n - 5 for n in 0..=9 to \"{}\"",
            file.display()
        ),
    )
    .unwrap_err();
    assert!(negative.contains("the value -5 (at n = 0)"), "{negative}");
}

/// A loopy heap game: heaps 1 and 2 move to each other, a heap of 3 or more takes 3 or 4.
const ESCAPE: &str = "game esc on n { if n == 1 { n += 1 }; if n == 2 { n -= 1 }; \
    if n >= 3 { n -= 3 }; if n >= 4 { n -= 4 } }\n";

/// The moves of `esc` from heap `n`.
fn esc_moves(n: usize) -> Vec<usize> {
    let mut out = match n {
        1 => vec![2],
        2 => vec![1],
        _ => Vec::new(),
    };
    out.extend([3, 4].iter().filter(|&&t| n >= t).map(|t| n - t));
    out
}

/// Which of the states `0..states` (closed under `moves`) have an infinite value, by Smith's
/// retrograde labelling written here: in round `i`, a state is labelled `i` while none of its
/// options is and every option not labelled has an option labelled `i`; then every state left
/// with no option labelled `i` is infinite.
fn infinite_states(states: usize, moves: impl Fn(usize) -> Vec<usize>) -> Vec<bool> {
    let heaps = states;
    let mut label: Vec<Option<u64>> = vec![None; heaps];
    let mut infinite = vec![false; heaps];
    let mut i = 0;
    while (0..heaps).any(|u| label[u].is_none() && !infinite[u]) {
        let has = |label: &[Option<u64>], v: usize| moves(v).iter().any(|&w| label[w] == Some(i));
        loop {
            let mut changed = false;
            for u in 0..heaps {
                if label[u].is_some() || infinite[u] || has(&label, u) {
                    continue;
                }
                let decided = moves(u)
                    .iter()
                    .all(|&v| label[v].is_some() || has(&label, v));
                if decided {
                    label[u] = Some(i);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for u in 0..heaps {
            if label[u].is_none() && !infinite[u] && !has(&label, u) {
                infinite[u] = true;
            }
        }
        i += 1;
    }
    infinite
}

#[test]
fn infinite_values_are_drawn_apart_and_named() {
    let svg_path = scratch("esc.svg");
    run(&format!(
        "{ESCAPE}plot sequence esc 0..=60 to {:?}",
        svg_path.display().to_string()
    ));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let infinite = infinite_states(61, esc_moves)
        .iter()
        .filter(|&&i| i)
        .count();
    assert!(infinite > 10);
    // A red cross (two lines) for each infinite value, and one in the legend.
    let red_lines = svg.matches("stroke=\"#FF0000\"").count();
    assert_eq!(red_lines, 2 * (infinite + 1));
    assert_eq!(svg.matches("<circle").count(), 61 - infinite);
    let texts = texts(&svg);
    for wanted in ["∞", "infinite value (∞): a loopy game&apos;s position"] {
        assert!(
            texts.iter().any(|t| t == wanted),
            "no {wanted:?} in {texts:?}"
        );
    }
    // A table: a grey cell for each infinite value, and a grey band marked ∞ in the colour bar.
    let table_path = scratch("esc_table.svg");
    run(&format!(
        "{ESCAPE}game twice on (a, b) {{ if a == 1 {{ a += 1 }}; if a == 2 {{ a -= 1 }}; \
         if a >= 3 {{ a -= 3 }}; if a >= 4 {{ a -= 4 }}; if b > 0 {{ b -= 1 }} }}\n\
         plot table twice 0..3, 0..20 to {:?}",
        table_path.display().to_string()
    ));
    let svg = std::fs::read_to_string(&table_path).unwrap();
    // Cell (a, b) is state 20 a + b; a < 3 never takes 3 or 4.
    let twice = |s: usize| {
        let (a, b) = (s / 20, s % 20);
        let mut out: Vec<usize> = esc_moves(a).iter().map(|a| 20 * a + b).collect();
        if b > 0 {
            out.push(s - 1);
        }
        out
    };
    let infinite = infinite_states(60, twice).iter().filter(|&&i| i).count();
    assert!(infinite > 0 && infinite < 60);
    let grey = svg.matches("fill=\"#BEBEBE\"").count();
    assert_eq!(grey, infinite + 1);
    assert!(self::texts(&svg).iter().any(|t| t == "∞"));
}

/// The misère Grundy values of single heaps of a heap game whose moves from heap `n` are
/// `moves(n)`, by their definition: a heap with no move has value 1, any other the mex of its
/// options' values (Conway, On Numbers and Games, ch. 12).
fn misere_values(heaps: usize, moves: impl Fn(usize) -> Vec<usize>) -> Vec<usize> {
    let mut values: Vec<usize> = Vec::new();
    for n in 0..heaps {
        let options: Vec<usize> = moves(n).into_iter().map(|m| values[m]).collect();
        let value = if options.is_empty() {
            1
        } else {
            (0..).find(|v| !options.contains(v)).unwrap()
        };
        values.push(value);
    }
    values
}

#[test]
fn a_misere_sequence_plot_draws_the_misere_values() {
    let path = scratch("misere_bash.svg");
    run(&format!(
        "plot sequence misere bash(2) 0..=12 to {:?}",
        path.display().to_string()
    ));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(
        texts(&svg).iter().any(|t| t.contains("misère")),
        "{:?}",
        texts(&svg)
    );
    // The heights of the points, in heap order: a larger value is drawn higher (a smaller y).
    let heights: Vec<i64> = svg
        .split("<circle ")
        .skip(1)
        .map(|c| {
            let y = &c[c.find("cy=\"").unwrap() + 4..];
            y[..y.find('"').unwrap()].parse().unwrap()
        })
        .collect();
    let values = misere_values(13, |n| (1..=2.min(n)).map(|k| n - k).collect());
    assert_eq!(heights.len(), values.len());
    for i in 0..values.len() {
        for j in 0..values.len() {
            assert_eq!(
                values[i].cmp(&values[j]),
                heights[j].cmp(&heights[i]),
                "heaps {i} and {j}: values {values:?}, heights {heights:?}"
            );
        }
    }
}
