//! Pictures: their size (the default, and `size W x H`), their text, read from the SVG (a title
//! naming the game and the range, the names of the axes, tick labels, and for a table a colour
//! bar), and their pixels, read from the PNG: ticks at the centres of the cells they name, the
//! P-positions (counted against a brute force written here) white and apart from every colour of
//! the map, the colour map rising in lightness, the colour bar's ticks at its bands' centres.
//! An SVG's text is real `<text>` naming the shipped font.

use std::path::{Path, PathBuf};

/// A path for a picture in the tests' scratch folder, with no file there yet (so that an
/// answer never says it replaced one from an earlier run).
fn scratch(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn run(source: &str) -> String {
    grundy::run_to_string("pictures", source).unwrap_or_else(|e| panic!("{source}:\n{e}"))
}

/// One `<text>` of an SVG: its text (as escaped in the SVG) and its attributes.
struct SvgText {
    text: String,
    x: f64,
    y: f64,
    attributes: String,
}

/// The `<text>` elements of an SVG, in order; every one names DejaVu Sans first.
fn svg_texts(svg: &str) -> Vec<SvgText> {
    svg.split("<text ")
        .skip(1)
        .map(|t| {
            let open = t.find('>').unwrap();
            let attributes = t[..open].to_string();
            let text = t[open + 1..t.find("</text>").unwrap()].trim().to_string();
            assert!(
                attributes.contains("font-family=\"DejaVu Sans, "),
                "{attributes}"
            );
            let number = |name: &str| attribute(&attributes, name).parse::<f64>().unwrap();
            SvgText {
                x: number("x"),
                y: number("y"),
                text,
                attributes,
            }
        })
        .collect()
}

/// The value of the attribute `name` among an element's attributes.
fn attribute(attributes: &str, name: &str) -> String {
    let attributes = format!(" {attributes}");
    let start = attributes.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    attributes[start..start + attributes[start..].find('"').unwrap()].to_string()
}

/// The texts of an SVG.
fn texts(svg: &str) -> Vec<String> {
    svg_texts(svg).into_iter().map(|t| t.text).collect()
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

/// Wythoff's game by brute force: its Grundy values in `0..rows` x `0..cols`.
fn wythoff(rows: usize, cols: usize) -> Vec<Vec<u64>> {
    let n = rows.max(cols);
    let mut value = vec![vec![0u64; n]; n];
    for a in 0..n {
        for b in 0..n {
            let mut seen = std::collections::BTreeSet::new();
            seen.extend((0..a).map(|x| value[x][b]));
            seen.extend((0..b).map(|y| value[a][y]));
            seen.extend((1..=a.min(b)).map(|k| value[a - k][b - k]));
            value[a][b] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
    }
    value.truncate(rows);
    value.iter_mut().for_each(|line| line.truncate(cols));
    value
}

/// A PNG's pixels, decoded with the `png` crate: `pixel(x, y)` is `[r, g, b]`.
struct Pixels {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Pixels {
    fn read(path: &Path) -> Pixels {
        let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
        let mut reader = decoder.read_info().unwrap();
        let mut buffer = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buffer).unwrap();
        let channels = info.color_type.samples();
        assert!(channels >= 3 && info.bit_depth == png::BitDepth::Eight);
        let rgb = (buffer[..info.buffer_size()].chunks(channels))
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        Pixels {
            width: info.width as usize,
            height: info.height as usize,
            rgb,
        }
    }

    fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        let at = 3 * (y * self.width + x);
        [self.rgb[at], self.rgb[at + 1], self.rgb[at + 2]]
    }

    fn black(&self, x: usize, y: usize) -> bool {
        self.pixel(x, y) == [0, 0, 0]
    }

    /// The longest run of black pixels along row `y` (or column `x` when `down`), as its first
    /// and last index.
    fn longest_black(&self, line: usize, down: bool) -> (usize, usize) {
        let length = if down { self.height } else { self.width };
        let mut best = (0, 0);
        let mut start = None;
        for i in 0..=length {
            let black = i < length
                && if down {
                    self.black(line, i)
                } else {
                    self.black(i, line)
                };
            match (black, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    if i - s > best.1 - best.0 + 1 || best == (0, 0) {
                        best = (s, i - 1);
                    }
                    start = None;
                }
                _ => {}
            }
        }
        best
    }

    /// The frame of a table's cells: the longest black line of the picture (its top or bottom
    /// edge) and the black line down from its left end, as (left, top, right, bottom).
    fn frame(&self) -> (usize, usize, usize, usize) {
        let (y, (left, right)) = (0..self.height)
            .map(|y| (y, self.longest_black(y, false)))
            .max_by_key(|(_, (a, b))| b - a)
            .unwrap();
        let (top, bottom) = self.longest_black(left, true);
        assert!(top <= y && y <= bottom);
        (left, top, right, bottom)
    }

    /// The box of a table's cells, inside its frame: the pixels neither white nor black (a
    /// white P-position is never in every cell of an edge), as (left, top, right, bottom).
    fn cells(&self) -> (usize, usize, usize, usize) {
        let (left, top, right, bottom) = self.frame();
        let coloured =
            |x: usize, y: usize| !matches!(self.pixel(x, y), [0, 0, 0] | [255, 255, 255]);
        let xs = || left + 1..right;
        let ys = || top + 1..bottom;
        let column = |x: usize| ys().any(|y| coloured(x, y));
        let row = |y: usize| xs().any(|x| coloured(x, y));
        (
            xs().find(|&x| column(x)).unwrap(),
            ys().find(|&y| row(y)).unwrap(),
            xs().rev().find(|&x| column(x)).unwrap(),
            ys().rev().find(|&y| row(y)).unwrap(),
        )
    }

    /// The runs of one colour along row `along` from `from` to `to` (a column when `down`), as
    /// their centres; black runs (the lines of the frame and the axes) left out.
    fn runs(&self, along: usize, from: usize, to: usize, down: bool) -> Vec<f64> {
        let at = |i: usize| {
            if down {
                self.pixel(along, i)
            } else {
                self.pixel(i, along)
            }
        };
        let mut centres = Vec::new();
        let mut start = from;
        for i in from + 1..=to {
            if i == to || at(i) != at(start) {
                if at(start) != [0, 0, 0] {
                    centres.push((start + i - 1) as f64 / 2.0);
                }
                start = i;
            }
        }
        centres
    }
}

/// CIE L* (lightness, 0 to 100) of an sRGB colour, by the sRGB and CIELAB definitions.
fn lightness([r, g, b]: [u8; 3]) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    if y > 216.0 / 24389.0 {
        116.0 * y.cbrt() - 16.0
    } else {
        24389.0 / 27.0 * y
    }
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
    let texts = svg_texts(&svg);
    let shown: Vec<&str> = texts.iter().map(|t| t.text.as_str()).collect();
    for wanted in [
        "kayles: Grundy values, 0 ≤ n ≤ 100",
        "heap n",
        "Grundy value",
        "0",
        "50",
        "100",
        "8",
    ] {
        assert!(shown.contains(&wanted), "no {wanted:?} in {shown:?}");
    }
    assert_eq!(svg.matches("<circle").count(), 101);
    // The title is centred, with room above it.
    let title = &texts[0];
    assert_eq!(title.text, "kayles: Grundy values, 0 ≤ n ≤ 100");
    assert_eq!(attribute(&title.attributes, "text-anchor"), "middle");
    assert_eq!(title.x, 600.0);
    assert!(title.y >= 12.0, "the title {} px from the top", title.y);
    // The grid's lines run across the plotting area; every point lies wholly inside it, the
    // point (0, 0) too, and every x tick label stands at the point it names.
    let lines: Vec<[f64; 4]> = (svg.split("<line ").skip(1))
        .map(|l| ["x1", "y1", "x2", "y2"].map(|n| attribute(l, n).parse().unwrap()))
        .collect();
    let left = lines
        .iter()
        .map(|l| l[0].min(l[2]))
        .fold(f64::MAX, f64::min);
    let bottom = lines.iter().map(|l| l[1].max(l[3])).fold(0.0, f64::max);
    let circles: Vec<[f64; 3]> = (svg.split("<circle ").skip(1))
        .map(|c| ["cx", "cy", "r"].map(|n| attribute(c, n).parse().unwrap()))
        .collect();
    for [cx, cy, r] in &circles {
        assert!(
            cx - r > left && cy + r < bottom,
            "a point at {cx}, {cy} on an axis"
        );
    }
    for (heap, label) in [(0, "0"), (50, "50"), (100, "100")] {
        let tick = texts
            .iter()
            .find(|t| t.text == label && t.y > bottom)
            .unwrap();
        assert!(
            (tick.x - circles[heap][0]).abs() <= 1.0,
            "{label} at {}",
            tick.x
        );
    }
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
    assert!(answer.contains("(1023 x 882 pixels)"), "{answer}");
    assert_eq!(png_size(&png_path), (1023, 882));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert_eq!(svg_size(&svg), ("1023".into(), "882".into()));
    let texts = texts(&svg);
    for wanted in [
        "wythoff: Grundy values, 0 ≤ a ≤ 40, 0 ≤ b ≤ 39",
        "a (first counter)",
        "b (second counter)",
        "Grundy value",
        "0",
        "20",
        "40",
    ] {
        assert!(
            texts.iter().any(|t| t == wanted),
            "no {wanted:?} in {texts:?}"
        );
    }
    // No tick names a column or row past the table's: b stops at 39.
    let values = wythoff(41, 40);
    let top = values.iter().flatten().max().unwrap();
    let numbers: Vec<u64> = texts.iter().filter_map(|t| t.parse().ok()).collect();
    assert!(numbers.iter().all(|n| n <= top.max(&40)), "{numbers:?}");
    // Every P-position is a white cell, and the colour bar starts with one white band.
    let cells: Vec<&str> = svg.split("<rect").skip(2).collect();
    let white = |r: &&&str| r[..r.find('>').unwrap()].contains("fill=\"#FFFFFF\"");
    let p_positions = values.iter().flatten().filter(|&&v| v == 0).count();
    assert_eq!(cells.iter().filter(white).count(), p_positions + 1);
}

#[test]
fn svg_text_is_real_text_in_the_shipped_font() {
    let path = scratch("real_text.svg");
    run(&format!(
        "plot table wythoff 0..12, 0..12 to {:?} title \"Wythoff's game\" xlabel \"x\" \
         ylabel \"y\" barlabel \"nim-value\" colours cividis",
        path.display().to_string()
    ));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(!svg.contains("<path"), "text drawn as outlines");
    let texts = texts(&svg);
    for wanted in ["Wythoff&apos;s game", "x", "y", "nim-value"] {
        assert!(
            texts.iter().any(|t| t == wanted),
            "no {wanted:?} in {texts:?}"
        );
    }
    assert!(!texts.iter().any(|t| t.contains("Grundy")), "{texts:?}");
    // cividis, not viridis: its first colour, from matplotlib's published table, is the colour
    // of the value 1.
    let first = [0.0f64, 0.135112, 0.304751].map(|c| (c * 255.0).round() as u8);
    let first = format!("#{:02X}{:02X}{:02X}", first[0], first[1], first[2]);
    assert!(svg.contains(&first), "no {first}");
    let refused = grundy::run_to_string(
        "pictures",
        "plot table wythoff 0..4, 0..4 to \"x.png\" colours rainbow",
    )
    .unwrap_err();
    assert!(refused.contains("viridis"), "{refused}");
    let refused = grundy::run_to_string(
        "pictures",
        "plot sequence kayles 0..4 to \"x.png\" colours viridis",
    )
    .unwrap_err();
    assert!(
        refused.contains("a sequence plot has no colour bar"),
        "{refused}"
    );
    let refused = grundy::run_to_string(
        "pictures",
        "plot sequence kayles 0..4 to \"x.png\" title \"a\" title \"b\"",
    )
    .unwrap_err();
    assert!(refused.contains("given twice"), "{refused}");
}

#[test]
fn ticks_stand_at_the_centres_of_the_cells() {
    for (value, down) in [("a", false), ("b", true)] {
        let path = scratch(&format!("centres_{value}.png"));
        run(&format!(
            "plot table {value} + 1 for a in 0..10, b in 0..10 to {:?}",
            path.display().to_string()
        ));
        let png = Pixels::read(&path);
        let (left, top, right, bottom) = png.frame();
        // The cells of one colour a column (a row).
        let (x0, y0, x1, y1) = png.cells();
        let cells = if down {
            png.runs((x0 + x1) / 2, y0, y1 + 1, true)
        } else {
            png.runs((y0 + y1) / 2, x0, x1 + 1, false)
        };
        assert_eq!(cells.len(), 10, "{cells:?}");
        // The tick marks, two pixels outside the frame's bottom (left) edge.
        let ticks: Vec<f64> = if down {
            (top..=bottom)
                .filter(|&y| png.black(left - 2, y))
                .map(|y| y as f64)
                .collect()
        } else {
            (left..=right)
                .filter(|&x| png.black(x, bottom + 2))
                .map(|x| x as f64)
                .collect()
        };
        // Ticks at 0, s, 2s, ... for a step s of 1, 2 or 5, each at the centre of its cell;
        // the y axis counts up from the bottom.
        let step = match ticks.len() {
            10 => 1,
            5 => 2,
            2 => 5,
            _ => panic!("ticks {ticks:?}"),
        };
        for (k, tick) in ticks.iter().enumerate() {
            let cell = if down {
                9 - (ticks.len() - 1 - k) * step
            } else {
                k * step
            };
            assert!(
                (cells[cell] - tick).abs() <= 1.0,
                "tick {tick} off cell {cells:?}"
            );
        }
    }
}

#[test]
fn p_positions_stand_apart_from_every_value_at_256_by_256() {
    let path = scratch("wythoff_256.png");
    run(&format!(
        "plot table wythoff 0..256, 0..256 to {:?}",
        path.display().to_string()
    ));
    let png = Pixels::read(&path);
    let (left, top, right, bottom) = png.cells();
    let values = wythoff(256, 256);
    let cell = (right + 1 - left) as f64 / 256.0;
    assert!((cell - 3.0).abs() < 0.1, "{cell}");
    let centre = |a: usize, b: usize| {
        let x = left as f64 + (a as f64 + 0.5) * cell;
        let y = (bottom + 1) as f64 - (b as f64 + 0.5) * (bottom + 1 - top) as f64 / 256.0;
        png.pixel(x as usize, y as usize)
    };
    let mut lightest_neighbour = 0.0f64;
    for (a, line) in values.iter().enumerate() {
        for (b, &value) in line.iter().enumerate() {
            let colour = centre(a, b);
            if value == 0 {
                assert_eq!(colour, [255, 255, 255], "P-position ({a}, {b})");
                let neighbours = [(a + 1, b), (a, b + 1)]
                    .into_iter()
                    .filter(|&(x, y)| x < 256 && y < 256);
                for (x, y) in neighbours {
                    lightest_neighbour = lightest_neighbour.max(lightness(centre(x, y)));
                }
            } else {
                assert_ne!(colour, [255, 255, 255], "({a}, {b}) of value {value}");
                // No value's colour comes near white in lightness: it reads in greyscale too.
                assert!(lightness(colour) < 93.0, "({a}, {b}): {colour:?}");
            }
        }
    }
    // The neighbours of P-positions are dark (the lightest well below white): white beside
    // them is plain.
    assert!(lightest_neighbour < 60.0, "{lightest_neighbour}");
}

#[test]
fn the_colour_map_rises_in_lightness() {
    // Values 1 to 256, one a colour of the map; 0, the P-positions, is drawn apart.
    for map in ["viridis", "cividis"] {
        let path = scratch(&format!("lightness_{map}.png"));
        run(&format!(
            "plot table a for a in 1..257, b in 0..2 to {:?} colours {map} size 1400 x 400",
            path.display().to_string()
        ));
        let png = Pixels::read(&path);
        let (left, top, right, bottom) = png.cells();
        let row = (top + bottom) / 2;
        let cell = (right + 1 - left) as f64 / 256.0;
        let lightness: Vec<f64> = (0..256)
            .map(|i| {
                let x = left as f64 + (i as f64 + 0.5) * cell;
                lightness(png.pixel(x as usize, row))
            })
            .collect();
        // Monotone, to the 8-bit rounding of a colour (a few hundredths of a unit of L*), and by
        // about a quarter of a unit a colour over every four.
        for i in 1..256 {
            assert!(
                lightness[i] > lightness[i - 1] - 0.1,
                "{map} {i}: {lightness:?}"
            );
        }
        for i in 4..256 {
            assert!(
                lightness[i] > lightness[i - 4] + 0.5,
                "{map} {i}: {lightness:?}"
            );
        }
        assert!(
            lightness[0] < 20.0 && lightness[255] > 85.0,
            "{map}: {lightness:?}"
        );
    }
    // viridis is matplotlib's: its first, middle and last colours from the published table.
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lightness_viridis.png");
    let png = Pixels::read(&path);
    let (left, top, right, bottom) = png.cells();
    let cell = (right + 1 - left) as f64 / 256.0;
    for (i, published) in [
        (0, [0.267004, 0.004874, 0.329415]),
        (128, [0.127568, 0.566949, 0.550556]),
        (255, [0.993248, 0.906157, 0.143936]),
    ] {
        let x = (left as f64 + (i as f64 + 0.5) * cell) as usize;
        let published = published.map(|c: f64| (c * 255.0).round() as u8);
        assert_eq!(png.pixel(x, (top + bottom) / 2), published, "entry {i}");
    }
}

#[test]
fn the_colour_bar_ticks_its_bands_at_their_centres() {
    let png_path = scratch("bar.png");
    let svg_path = scratch("bar.svg");
    // Values 0 to 6.
    let source = |file: &Path| {
        format!(
            "plot table (a + b) % 7 for a in 0..10, b in 0..10 to {:?}",
            file.display().to_string()
        )
    };
    run(&source(&png_path));
    run(&source(&svg_path));
    let png = Pixels::read(&png_path);
    let (_, top, right, bottom) = png.frame();
    // The bar: the first column right of the cells with a black line down it.
    let row = (top + bottom) / 2;
    let bar_left = (right + 2..png.width).find(|&x| png.black(x, row)).unwrap();
    let bar_right = (bar_left + 2..png.width)
        .find(|&x| png.black(x, row))
        .unwrap();
    let (bar_top, bar_bottom) = png.longest_black(bar_left, true);
    let bands = png.runs((bar_left + bar_right) / 2, bar_top + 1, bar_bottom, true);
    assert_eq!(bands.len(), 7, "{bands:?}");
    let ticks: Vec<f64> = (bar_top..=bar_bottom)
        .filter(|&y| png.black(bar_right + 2, y))
        .map(|y| y as f64)
        .collect();
    assert!(!ticks.is_empty());
    for tick in &ticks {
        assert!(
            bands.iter().any(|b| (b - tick).abs() <= 1.0),
            "tick {tick} off the bands {bands:?}"
        );
    }
    // In the SVG: the bar's labels go to 6, not 7, and its name stands clear of them.
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let texts = svg_texts(&svg);
    let name = texts.iter().find(|t| t.text == "value").unwrap();
    let labels: Vec<&SvgText> = texts.iter().filter(|t| t.x > bar_right as f64).collect();
    let numbers: Vec<u64> = labels.iter().filter_map(|t| t.text.parse().ok()).collect();
    assert_eq!(numbers.len(), ticks.len());
    assert!(numbers.iter().all(|&n| n <= 6), "{numbers:?}");
    for label in labels.iter().filter(|t| t.text != "value") {
        let size: f64 = attribute(&label.attributes, "font-size").parse().unwrap();
        let width = size * label.text.chars().count() as f64;
        assert!(
            label.x + width < name.x - size / 2.0,
            "{} meets the name",
            label.text
        );
    }
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
        shown.contains(&"n % 7, 3 ≤ n ≤ 60".to_string()),
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
        shown.contains(&"a * b, 0 ≤ a ≤ 9, 0 ≤ b ≤ 19".to_string()),
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
