//! Heap sequences past 2^20 heaps are computed (the only bound is memory), their values agree
//! with computations written here, and the peak memory of the process stays about a byte a
//! value, as the kernel measured it (`wait4`).

use crate::support::grundys_rules;
use crate::support::measured;
use crate::support::printed;

use printed::sequence_values;

/// Runs the interpreter on `source` with `args`, which must succeed; returns its standard
/// output and its peak resident memory in KiB.
fn run(args: &[&str], source: &str) -> (String, usize) {
    let run = measured::run_measured(args, source);
    assert_eq!(run.code, Some(0), "{source}: {}", run.stderr);
    (run.stdout, run.peak_kib)
}

/// Grundy's game by the sparse space, written for it alone: values in bytes, the mask that
/// makes the fewest heaps rare rechosen at each power of two, every common option value from
/// the pairs with a rare part, the other pairs scanned until every rare value below the least
/// missing common one is found. It gives the values of the definition (every split `a < n - a`).
fn grundys_game(len: usize) -> Vec<u8> {
    let mut g: Vec<u8> = Vec::with_capacity(len);
    let mut histogram = [0usize; 256];
    let mut mask = 0u32;
    let mut rare: Vec<usize> = Vec::new();
    let is_rare = |v: u8, mask: u32| (v as u32 & mask).count_ones().is_multiple_of(2);
    for n in 0..len {
        if n >= 64 && n.is_power_of_two() {
            let count = |m: u32| {
                (0..256)
                    .filter(|&v| is_rare(v as u8, m))
                    .map(|v| histogram[v])
                    .sum::<usize>()
            };
            mask = (1..256).min_by_key(|&m| count(m)).unwrap();
            rare = (1..n).filter(|&h| is_rare(g[h], mask)).collect();
        }
        let mut seen = [false; 256];
        let value = if mask == 0 {
            for a in 1..n.div_ceil(2) {
                seen[(g[a] ^ g[n - a]) as usize] = true;
            }
            seen.iter().position(|&s| !s).unwrap() as u8
        } else {
            for &r in rare.iter().filter(|&&r| r < n && 2 * r != n) {
                seen[(g[r] ^ g[n - r]) as usize] = true;
            }
            let common_mex = (0..=255u8)
                .find(|&v| !seen[v as usize] && !is_rare(v, mask))
                .unwrap();
            let mut wanted: Vec<u8> = (0..common_mex).filter(|&v| !seen[v as usize]).collect();
            let mut a = 1;
            while !wanted.is_empty() && a < n.div_ceil(2) {
                let v = g[a] ^ g[n - a];
                wanted.retain(|&w| w != v);
                a += 1;
            }
            wanted.first().copied().unwrap_or(common_mex)
        };
        g.push(value);
        histogram[value as usize] += 1;
        if mask != 0 && n >= 1 && is_rare(value, mask) {
            rare.push(n);
        }
    }
    g
}

/// The values of Grundy's game to 2^20 + 64, computed once for the tests of this file.
fn grundys_game_values() -> &'static [u8] {
    static VALUES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    VALUES.get_or_init(|| grundys_game((1 << 20) + 64))
}

#[test]
fn grundys_game_past_two_to_the_twenty_at_a_byte_a_value() {
    let len = (1 << 20) + 64;
    let (out, peak_kib) = run(&[], &format!("sequence grundys {}..{len}", len - 64));
    let (baseline, baseline_kib) = run(&[], "print 1");
    assert_eq!(baseline, "1\n");
    let g = &grundys_game_values()[..len];
    let numbers: Vec<u8> = sequence_values(&out);
    assert_eq!(numbers, g[len - 64..], "{out}");
    // A byte a value, and 30 % more for the allocator and the tables.
    let bound = baseline_kib + ((len * 13 / 10) >> 10);
    assert!(
        peak_kib <= bound,
        "peak {peak_kib} KiB, more than {bound} KiB (baseline {baseline_kib} KiB)"
    );
}

#[test]
fn a_subtraction_game_past_two_to_the_twenty() {
    let len = (1 << 22) + 10;
    let mut g = vec![0u8; len];
    for n in 1..len {
        let mut seen = [false; 8];
        for s in [1, 3, 4] {
            if s <= n {
                seen[g[n - s] as usize] = true;
            }
        }
        g[n] = seen.iter().position(|&s| !s).unwrap() as u8;
    }
    let heaps = [1 << 20, (1 << 22) + 9, 3_000_001];
    let source: Vec<String> = heaps
        .iter()
        .map(|n| format!("print grundy(sub({{1, 3, 4}})[{n}])"))
        .collect();
    let (out, _) = run(&[], &source.join("\n"));
    let expected: String = heaps.iter().map(|&n| format!("{}\n", g[n])).collect();
    assert_eq!(out, expected);
}

/// The diagnostic of `source`, run with a memory limit of 4 MiB.
fn refused_at_four_mib(source: &str) -> String {
    let limits = grundy::game::Limits {
        max_memory: 4 << 20,
        ..Default::default()
    };
    grundy::run_to_string_with("far", source, limits).unwrap_err()
}

#[test]
fn the_memory_limit_refuses_a_sequence_naming_the_memory_it_needs() {
    // Officers' values past twice its last rare heap are kept as a byte code each: 3 * 10^6 heaps
    // fit in 4 MiB, 5 * 10^6 do not.
    let limits = grundy::game::Limits {
        max_memory: 4 << 20,
        ..Default::default()
    };
    let fits = grundy::run_to_string_with("far", "print grundy(officers[3 * 10^6])", limits);
    assert!(fits.is_ok(), "{fits:?}");
    let refused = refused_at_four_mib("print grundy(officers[5 * 10^6])");
    assert!(refused.contains("grundy::heap_memory"), "{refused}");
    assert!(refused.contains("--max-memory 6"), "{refused}");
}

#[test]
fn the_moves_of_a_heap_past_two_to_the_twenty_are_counted_and_listed_from_the_values_below_it() {
    let g = grundys_game_values();
    let n: usize = (1 << 20) + 37;
    let nim = 5u8;
    // The splits `(a, n - a)`, `a < n - a`, and their values.
    let splits: Vec<(usize, u8)> = (1..n.div_ceil(2)).map(|a| (a, g[a] ^ g[n - a])).collect();
    let winning: Vec<usize> = (splits.iter())
        .filter(|&&(_, v)| v == nim)
        .map(|&(a, _)| a)
        .collect();
    let nim_wins = usize::from(g[n] < nim);
    let source = format!(
        "print len(options(grundys[{n}]))\n\
         print len(wins(grundys[{n}] + nim[{nim}]))\n\
         win grundys[{n}] + nim[{nim}]\n\
         moves grundys[{n}]\n\
         print options(grundys[{n}])[{last}]",
        last = splits.len() - 1
    );
    let (out, _) = run(&[], &source);
    let mut lines = out.lines();
    assert_eq!(lines.next().unwrap(), splits.len().to_string());
    let wins = winning.len() + nim_wins;
    assert_eq!(lines.next().unwrap(), wins.to_string());
    let head = lines.next().unwrap();
    assert!(head.ends_with(&format!("{wins} winning moves")), "{head}");
    for &a in winning.iter().take(50) {
        let line = lines.next().unwrap();
        let expected = format!("grundys[{n}] -> grundys[{a}, {}]", n - a);
        assert!(line.contains(&expected), "{line} is not {expected}");
    }
    let more = wins.saturating_sub(50);
    let mut line = lines.next().unwrap();
    if more > 0 {
        assert!(line.contains(&format!("and {more} more")), "{line}");
        line = lines.next().unwrap();
    }
    let mex = (0..)
        .find(|v| splits.iter().all(|&(_, s)| s != *v))
        .unwrap();
    assert_eq!(mex, g[n]);
    assert_eq!(
        line,
        format!("grundys[{n}]: {} options, mex {mex}", splits.len())
    );
    for &(a, v) in splits.iter().take(50) {
        let line = lines.next().unwrap();
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            fields,
            [
                format!("grundys[{a},"),
                format!("{}]", n - a),
                v.to_string()
            ]
        );
    }
    assert!(lines
        .next()
        .unwrap()
        .contains(&format!("and {} more", splits.len() - 50)));
    let (a, _) = splits[splits.len() - 1];
    assert_eq!(lines.next().unwrap(), format!("grundys[{a}, {}]", n - a));
    assert_eq!(lines.next(), None, "{out}");
}

#[test]
fn a_game_that_takes_any_amount_or_splits_with_no_proved_period_is_bounded_by_memory_only() {
    // The arithmetic-periodicity test does not prove this game's apparent period: its heaps are
    // computed in order, as far as memory allows, and refused with the memory a heap needs.
    let source = "game l on n {
        for k in 1..=n { n -= k }
        for a in 1..n if a < n - a { n = [a, n - a] }
        for a in 1..=(n - 3) / 2 { n = [a, n - 3 - a] }
    }
    period l
    grundy l[3 * 10^6]";
    let refused = refused_at_four_mib(source);
    assert!(refused.contains("apparent, not proved"), "{refused}");
    assert!(refused.contains("grundy::heap_memory"), "{refused}");
    // Its values are distinct (every smaller heap is an option), so heap 3 * 10^6 needs values
    // of 4 bytes: the refusal says so before any is computed that wide.
    assert!(refused.contains("at 4 bytes a value"), "{refused}");
    assert!(refused.contains("--max-memory 12"), "{refused}");
}

/// Grundy's game to the heap where its values first need two bytes, against tczajka's analyzer
/// (`analyze grundy 7250050`, see BENCHMARKS.md): G(7250049) = 256, the first value of 256, and
/// the sum of the values of heaps 0..=7250049 is 467,700,098. The values below are computed by
/// the byte kernels, the last one by the two-byte path.
#[test]
fn grundys_game_widens_to_two_bytes_where_tczajkas_analyzer_finds_its_first_value_of_256() {
    let mut grundys = grundy::game::heap::HeapSequence::new(grundys_rules::grundys_rules());
    let last = 7_250_049;
    let limits = grundy::game::Limits::default();
    assert_eq!(grundys.value(last, &limits).unwrap(), 256);
    assert_eq!(grundys.values().position(|v| v > 255), Some(last as usize));
    assert_eq!(grundys.values().map(u64::from).sum::<u64>(), 467_700_098);
}

/// Grundy's game past 2^20 by every kernel set (the portable ones too, whatever the processor),
/// in this process, against the values written here.
#[test]
fn every_kernel_set_gives_grundys_game_past_two_to_the_twenty() {
    let len = (1 << 20) + 64;
    let g = grundys_game_values();
    for kernels in grundy::game::heap::Kernels::every() {
        let mut seq =
            grundy::game::heap::HeapSequence::with_kernels(grundys_rules::grundys_rules(), kernels);
        let limits = grundy::game::Limits::default();
        seq.value(len as u64 - 1, &limits).unwrap();
        let same = seq.values().map(|v| v as u8).eq(g[..len].iter().copied());
        assert!(same, "{} kernels", kernels.name());
    }
}
