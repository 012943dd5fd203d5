//! Games on cells written in the language (`on cells c`): Cram, Node Kayles and remove-a-cell,
//! each in several spellings, against a brute force written here (the plain mex over every
//! subset of a small board), through the native route and through the walker
//! (`interpret_only`); the method each gets; sums across parts; Cram's published nimbers; boards
//! read from a file; positions shown as text that reads back in; the limit of 128 cells.

use grundy::game::{Limits, Method};
use grundy::Session;

use crate::support::random::Random;

/// Cram, Node Kayles and remove-a-cell, each spelled three ways, and a game whose rule is no
/// cell move (remove a cell with a present neighbour).
const GAMES: &str = "
game cram1 on cells c { for x in c, y in neighbours(c, x) if y > x and y in c { c -= {x, y} } }
game cram2 on cells c { for x in c, y in neighbours(c, x) if y in c { c -= x; c -= y } }
game cram3 on cells c { for x in c, y in neighbours(c, x) if x < y if y in c { c -= {y, x} } }
game kayles1 on cells c { for x in c { c -= neighbours(c, x); c -= x } }
game kayles2 on cells c { for x in c { c -= {x}; c -= neighbours(c, x) } }
game kayles3 on cells c { for x in c if x in c { c -= neighbours(c, x); c -= {x} } }
game remove1 on cells c { for x in c { c -= {x} } }
game remove2 on cells c { for x in c { c -= x } }
game remove3 on cells c { for x in c if x in c { c = c - {x} } }
game lonely on cells c { for x in c if degree(c, x) > 0 { c -= x } }
";

#[derive(Clone, Copy, Debug)]
enum Kind {
    Cram,
    Kayles,
    Remove,
    Lonely,
}

/// The games of [`GAMES`] of each kind.
const NAMES: [(Kind, &[&str]); 4] = [
    (Kind::Cram, &["cram1", "cram2", "cram3"]),
    (Kind::Kayles, &["kayles1", "kayles2", "kayles3"]),
    (Kind::Remove, &["remove1", "remove2", "remove3"]),
    (Kind::Lonely, &["lonely"]),
];

/// The value of every subset of a board of at most 14 cells (`near[c]`: the cells beside `c`),
/// by the plain mex from the empty set up.
fn brute_force(near: &[u32], kind: Kind) -> Vec<u32> {
    let mut values = vec![0u32; 1 << near.len()];
    for set in 0..values.len() as u32 {
        let mut seen = Vec::new();
        for c in 0..near.len() {
            if set >> c & 1 == 0 {
                continue;
            }
            match kind {
                Kind::Cram => {
                    for d in c + 1..near.len() {
                        if near[c] >> d & 1 == 1 && set >> d & 1 == 1 {
                            seen.push(values[(set & !(1 << c) & !(1 << d)) as usize]);
                        }
                    }
                }
                Kind::Kayles => seen.push(values[(set & !(1 << c) & !near[c]) as usize]),
                Kind::Remove => seen.push(values[(set & !(1 << c)) as usize]),
                Kind::Lonely if near[c] & set != 0 => seen.push(values[(set & !(1 << c)) as usize]),
                Kind::Lonely => {}
            }
        }
        values[set as usize] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    values
}

/// A board of the tests: its cells' neighbours, and how a set of its cells is written.
struct TestBoard {
    near: Vec<u32>,
    write: Box<dyn Fn(u32) -> String>,
}

/// The cells beside each cell of a `width` by `height` grid, numbered row by row.
fn grid_near(width: usize, height: usize) -> Vec<u32> {
    let mut near = vec![0u32; width * height];
    for r in 0..height {
        for c in 0..width {
            let cell = r * width + c;
            if c + 1 < width {
                near[cell] |= 1 << (cell + 1);
                near[cell + 1] |= 1 << cell;
            }
            if r + 1 < height {
                near[cell] |= 1 << (cell + width);
                near[cell + width] |= 1 << cell;
            }
        }
    }
    near
}

fn random_grid(random: &mut Random) -> TestBoard {
    let width = 1 + random.below(4) as usize;
    let height = 1 + random.below((12 / width).min(4) as u64) as usize;
    let near = grid_near(width, height);
    let write = move |set: u32| {
        let rows: Vec<String> = (0..height)
            .map(|r| {
                let row: String = (0..width)
                    .map(|c| {
                        if set >> (r * width + c) & 1 == 1 {
                            '.'
                        } else {
                            '#'
                        }
                    })
                    .collect();
                format!("{row:?}")
            })
            .collect();
        format!("grid([{}])", rows.join(", "))
    };
    TestBoard {
        near,
        write: Box::new(write),
    }
}

fn random_graph(random: &mut Random) -> TestBoard {
    let n = 1 + random.below(11) as usize;
    let mut near = vec![0u32; n];
    let mut edges = Vec::new();
    for _ in 0..random.below(2 * n as u64 + 1) {
        let (a, b) = (
            random.below(n as u64) as usize,
            random.below(n as u64) as usize,
        );
        edges.push(format!("[{a}, {b}]"));
        if a != b {
            near[a] |= 1 << b;
            near[b] |= 1 << a;
        }
    }
    let edges = edges.join(", ");
    let write = move |set: u32| {
        let absent: Vec<String> = (0..n)
            .filter(|v| set >> v & 1 == 0)
            .map(|v| v.to_string())
            .collect();
        format!("vertices({n}, [{edges}]) - {{{}}}", absent.join(", "))
    };
    TestBoard {
        near,
        write: Box::new(write),
    }
}

fn session() -> Session {
    let mut session = Session::new(Limits::default());
    session.run("cells", GAMES, &mut Vec::new()).unwrap();
    session
}

/// What `statement` prints in `session`.
fn printed(session: &mut Session, statement: &str) -> String {
    let mut out = Vec::new();
    if let Err(e) = session.run("cells", statement, &mut out) {
        panic!("{statement}\n{e:?}");
    }
    String::from_utf8(out).unwrap().trim_end().to_string()
}

/// The values of `game` at these positions, in one statement.
fn values(session: &mut Session, game: &str, boards: &[String]) -> Vec<u32> {
    let asked: Vec<String> = boards
        .iter()
        .map(|b| format!("grundy({game}[{b}])"))
        .collect();
    let text = printed(session, &format!("print [{}]", asked.join(", ")));
    text.trim_matches(['[', ']'])
        .split(", ")
        .map(|v| v.parse().unwrap())
        .collect()
}

fn method(session: &mut Session, game: &str) -> Method {
    session.method(game).unwrap().1
}

#[test]
fn the_games_have_the_brute_force_values_natively_and_walked() {
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let mut native = session();
    grundy::interpret_only(true);
    let mut walked = session();
    grundy::interpret_only(false);
    for round in 0..24 {
        let board = if round % 2 == 0 {
            random_grid(&mut random)
        } else {
            random_graph(&mut random)
        };
        let sets: Vec<u32> = (0..6)
            .map(|_| random.below(1 << board.near.len()) as u32)
            .collect();
        let written: Vec<String> = sets.iter().map(|&s| (board.write)(s)).collect();
        for (kind, games) in NAMES {
            let truth = brute_force(&board.near, kind);
            let expected: Vec<u32> = sets.iter().map(|&s| truth[s as usize]).collect();
            for game in games {
                assert_eq!(
                    values(&mut native, game, &written),
                    expected,
                    "{game} {written:?}"
                );
                grundy::interpret_only(true);
                let plain = values(&mut walked, game, &written);
                grundy::interpret_only(false);
                assert_eq!(plain, expected, "{game} walked, {written:?}");
            }
        }
    }
}

#[test]
fn the_three_moves_are_routed_to_the_cells_solver_and_others_are_not() {
    let mut s = session();
    let cells = Method::Cells {
        parts: true,
        symmetric: true,
        pruned: true,
    };
    for (kind, games) in NAMES {
        for game in games {
            let expected = match kind {
                Kind::Lonely => Method::Search,
                _ => cells.clone(),
            };
            assert_eq!(method(&mut s, game), expected, "{game}");
        }
    }
    grundy::interpret_only(true);
    let mut walked = session();
    grundy::interpret_only(false);
    assert_eq!(method(&mut walked, "cram1"), Method::Search);
    // A contradiction among the guards is no move, and not read as one.
    let mut s = Session::new(Limits::default());
    let never = "game never on cells c { for x in c, y in neighbours(c, x) if y > x and y < x and y in c { c -= {x, y} } }";
    s.run("cells", never, &mut Vec::new()).unwrap();
    assert_eq!(method(&mut s, "never"), Method::Search);
    assert_eq!(printed(&mut s, "grundy never[grid(3, 3)]"), "0");
}

#[test]
fn a_board_of_parts_is_the_sum_of_its_parts() {
    let mut s = session();
    for game in ["cram1", "kayles1", "remove1"] {
        let whole = printed(
            &mut s,
            &format!("grundy {game}[grid([\"...#..\", \"...#..\", \"####..\"])]"),
        );
        let a = printed(&mut s, &format!("grundy {game}[grid(3, 2)]"));
        let b = printed(&mut s, &format!("grundy {game}[grid(2, 3)]"));
        let sum = printed(
            &mut s,
            &format!("grundy {game}[grid(3, 2)] + {game}[grid(2, 3)]"),
        );
        let xor = a.parse::<u32>().unwrap() ^ b.parse::<u32>().unwrap();
        assert_eq!(whole, xor.to_string(), "{game}");
        assert_eq!(sum, xor.to_string(), "{game}");
    }
}

/// Cram's nimbers as igsolve's README (github.com/beling/impartial-games) tabulates them:
/// (rows, columns, nimber).
const PUBLISHED_CRAM: [(usize, usize, u32); 4] = [(4, 4, 0), (4, 5, 2), (5, 5, 0), (4, 7, 3)];

#[test]
fn cram_has_the_published_nimbers_through_the_language() {
    let mut s = session();
    for (rows, columns, nimber) in PUBLISHED_CRAM {
        let value = printed(&mut s, &format!("grundy cram1[grid({columns}, {rows})]"));
        assert_eq!(value, nimber.to_string(), "{rows} x {columns}");
    }
}

#[test]
fn positions_and_options_read_back_in() {
    let mut s = session();
    assert_eq!(
        printed(&mut s, "print cram1[grid(3, 2)]"),
        "cram1[grid(3, 2)]"
    );
    let options = printed(&mut s, "print options(cram1[grid([\"..#\", \"...\"])])");
    assert!(
        options.contains("cram1[grid([\"###\", \"...\"])]"),
        "{options}"
    );
    let graph = printed(
        &mut s,
        "print kayles1[vertices(4, [[0, 1], [1, 2], [2, 3]]) - {3}]",
    );
    assert_eq!(
        graph,
        "kayles1[vertices(4, [[0, 1], [1, 2], [2, 3]]) - {3}]"
    );
    for shown in [&options, &graph] {
        let again = printed(&mut s, &format!("print {shown} == {shown}"));
        assert!(again == "true" || again.starts_with('['), "{again}");
    }
    let back = printed(
        &mut s,
        "print options(cram1[grid(3, 1)]) == [cram1[grid([\"##.\"])], cram1[grid([\".##\"])]]",
    );
    assert_eq!(back, "true");
}

#[test]
fn a_graph_read_from_a_file_is_the_graph_written_out() {
    let folder = tempfile::tempdir().unwrap();
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    let edges: Vec<(u64, u64)> = (0..60)
        .map(|_| (random.below(40), random.below(40)))
        .collect();
    let text: String = edges.iter().map(|(a, b)| format!("{a} {b}\n")).collect();
    std::fs::write(folder.path().join("edges.txt"), text).unwrap();
    let written: Vec<String> = edges.iter().map(|(a, b)| format!("[{a}, {b}]")).collect();
    let source = format!(
        "{GAMES}\nlet g = vertices(40, read(\"edges.txt\"))\nprint g == vertices(40, [{}])\nprint len(g)",
        written.join(", ")
    );
    let limits = Limits {
        root: grundy::files::Root::folder(folder.path().to_path_buf()),
        ..Limits::default()
    };
    let out = grundy::run_to_string_with("cells", &source, limits).unwrap();
    assert_eq!(out, "true\n40\n");
}

#[test]
fn a_board_over_128_cells_is_refused() {
    for board in [
        "grid(12, 11)",
        "vertices(129, [])",
        "grid(repeat(\".\", 129))",
    ] {
        let error =
            grundy::run_to_string("cells", &format!("{GAMES}\ngrundy cram1[{board}]")).unwrap_err();
        assert!(error.contains("grundy::too_many_cells"), "{board}: {error}");
    }
    let fits =
        grundy::run_to_string("cells", &format!("{GAMES}\ngrundy remove1[grid(16, 8)]")).unwrap();
    assert_eq!(fits, "0\n");
}

/// Cram written over a list (issue 22's spelling and others), whose rules are read as Cram on
/// the grid of its cells: each spelling read so is routed to the cells solver, and its values,
/// natively and walked, are those of the brute force on the grid of the list's empty cells
/// (any non-zero entry covered); a list whose length is not a multiple of the width is no
/// grid, and both routes answer it alike. A spelling that reads a cell before the guard that
/// keeps it on the list is not read as Cram: the walker's error off the end of the list stays.
#[test]
fn cram_over_a_list_is_cram_on_the_grid_of_its_cells() {
    let across = "s[i] == 0 and i % w < w - 1 and s[i + 1] == 0 { s[i] = 1; s[i + 1] = 1 }";
    let down = "s[i] == 0 and i + w < len(s) and s[i + w] == 0 { s[i] = 1; s[i + w] = 1 }";
    let spellings = [
        format!("game cram on s[] {{\n for i in 0..len(s) if {across}\n for i in 0..len(s) if {down}\n}}"),
        "game cram on s[] { for j in 0..len(s) if j + w < len(s) and s[j + w] == 0 and s[j] == 0 \
         { s[j + w] = 2; s[j] = 2 }; for j in 0..len(s) if s[j] == 0 if j % w < w - 1 and \
         s[j + 1] == 0 { s[j] = 1; s[j + 1] = 1 } }"
            .to_string(),
        format!(
            "game cram(w) on s[] {{ for i in 0..len(s) if i % w < w - 1 and 0 == s[1 + i] and \
             s[i] == 0 {{ s[i] = 1; s[i + 1] = 1 }}; for i in 0..len(s) if {down} }}"
        ),
    ];
    let named = ["cram", "cram", "cram(w)"];
    let cells = Method::Cells {
        parts: true,
        symmetric: true,
        pruned: true,
    };
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    for (spelling, game) in spellings.iter().zip(named) {
        for width in 1..=4usize {
            let source = format!("let w = {width}\n{spelling}");
            let mut native = Session::new(Limits::default());
            native.run("cram", &source, &mut Vec::new()).unwrap();
            grundy::interpret_only(true);
            let mut walked = Session::new(Limits::default());
            walked.run("cram", &source, &mut Vec::new()).unwrap();
            grundy::interpret_only(false);
            let game = game.replace('w', &width.to_string());
            if !game.contains('(') {
                assert_eq!(method(&mut native, &game), cells, "{source}");
            }
            for height in 1..=12 / width {
                let truth = brute_force(&grid_near(width, height), Kind::Cram);
                let lists: Vec<Vec<u64>> = (0..4)
                    .map(|_| {
                        (0..width * height)
                            .map(|_| random.below(3) * random.below(2))
                            .collect()
                    })
                    .collect();
                let empty = |list: &[u64]| {
                    (list.iter().enumerate()).fold(0, |set, (i, &x)| set | u32::from(x == 0) << i)
                };
                let expected: Vec<u32> = lists.iter().map(|l| truth[empty(l) as usize]).collect();
                let written: Vec<String> = lists.iter().map(|l| format!("{l:?}")).collect();
                assert_eq!(values(&mut native, &game, &written), expected, "{source}");
                grundy::interpret_only(true);
                let plain = values(&mut walked, &game, &written);
                grundy::interpret_only(false);
                assert_eq!(plain, expected, "{source}, walked");
            }
            if width > 1 {
                let list = vec![0; width + 1];
                let statement = format!("print grundy({game}[{list:?}])");
                let answer = |s: &mut Session| {
                    let mut out = Vec::new();
                    let result = s.run("cram", &statement, &mut out);
                    (result.is_ok(), String::from_utf8(out).unwrap())
                };
                let native_answer = answer(&mut native);
                grundy::interpret_only(true);
                let walked_answer = answer(&mut walked);
                grundy::interpret_only(false);
                assert_eq!(native_answer, walked_answer, "{source}: {statement}");
            }
        }
    }
    let mut s = Session::new(Limits::default());
    let off_the_end = "let w = 3\ngame cram on s[] {\n for i in 0..len(s) if s[i + 1] == 0 and \
                       i % w < w - 1 and s[i] == 0 { s[i] = 1; s[i + 1] = 1 }\n for i in 0..len(s) \
                       if s[i] == 0 and i + w < len(s) and s[i + w] == 0 { s[i] = 1; s[i + w] = 1 }\n}";
    s.run("cram", off_the_end, &mut Vec::new()).unwrap();
    assert_eq!(method(&mut s, "cram"), Method::Search);
    assert!(s
        .run(
            "cram",
            "print grundy(cram[[0, 0, 0, 0, 0, 0]])",
            &mut Vec::new()
        )
        .is_err());
}
