use super::*;

/// The plain definition: every option, then the mex.
fn plain(rules: &HeapRules, len: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for _ in 0..len {
        g.push(plain_value(rules, &g));
    }
    g
}

/// The value of heap `g.len()` by the plain definition, from the values `g` of the heaps below.
fn plain_value(rules: &HeapRules, g: &[u32]) -> u32 {
    let n = g.len();
    let mut values = Vec::new();
    for t in &rules.takes {
        let take = t.take as usize;
        if take > n {
            continue;
        }
        let rest = n - take;
        if t.none && rest == 0 {
            values.push(0);
        }
        if t.one && rest > 0 {
            values.push(g[rest]);
        }
        if t.two {
            for a in 1..rest {
                if !(t.unequal && 2 * a == rest) {
                    values.push(g[a] ^ g[rest - a]);
                }
            }
        }
    }
    for r in &rules.ranges {
        let hi = r.hi.map_or(n, |hi| (hi as usize).min(n));
        for k in r.lo as usize..=hi {
            values.push(g[n - k]);
        }
    }
    let options = values.len();
    let mut present = vec![false; options + 1];
    for &v in values.iter().filter(|&&v| v as usize <= options) {
        present[v as usize] = true;
    }
    present.iter().position(|&p| !p).unwrap() as u32
}

fn fast(rules: &HeapRules, len: usize) -> Vec<u32> {
    fast_stored_as(rules, len, CompactValues::new())
}

/// [`fast`], with the values kept from the start in the storage given (empty), so that the
/// paths for wide values run on games whose values are small. Every kernel set runs, and each
/// gives the same values.
fn fast_stored_as(rules: &HeapRules, len: usize, storage: CompactValues) -> Vec<u32> {
    let setup = |seq: &mut HeapSequence| {
        seq.values = match &storage {
            CompactValues::Bytes(_) => CompactValues::Bytes(Vec::new()),
            CompactValues::Halves(_) => CompactValues::Halves(Vec::new()),
            CompactValues::Words(_) => CompactValues::Words(Vec::new()),
            CompactValues::Coded(_) => unreachable!("the codes are taken, not given"),
        };
        // Storage given wide stays so: the two-byte paths, not the codes.
        seq.code_from = u32::MAX;
    };
    under_every_kernel_set(rules, len, setup).0
}

/// The values of `rules` to `len` under every kernel set, each sequence set up by `setup` first
/// (each set gives the same values), and whether the codes served under each (the values ended
/// coded, or the codes' scan or blocks answered).
fn under_every_kernel_set(
    rules: &HeapRules,
    len: usize,
    setup: impl Fn(&mut HeapSequence),
) -> (Vec<u32>, bool) {
    let limits = Limits::default();
    let mut found: Option<Vec<u32>> = None;
    let mut coded = true;
    for kernels in Kernels::every() {
        let mut seq = HeapSequence::with_kernels(rules.clone(), kernels);
        setup(&mut seq);
        let values: Vec<u32> = (0..len as u64)
            .map(|n| seq.value(n, &limits).unwrap())
            .collect();
        coded &= matches!(seq.values, CompactValues::Coded(_)) || seq.coded_runs != (0, 0);
        if let Some(first) = &found {
            assert!(
                values == *first,
                "{} kernels differ: {rules:?}",
                kernels.name()
            );
        }
        found = Some(values);
    }
    (found.expect("a kernel set"), coded)
}

/// The moves of an octal code's digits after the point (`digits[j]` for taking `j`), splits
/// into unequal parts only when `unequal`.
fn octal(digits: &[u8], unequal: bool) -> HeapRules {
    HeapRules {
        takes: (digits.iter().enumerate())
            .map(|(j, &d)| take(j as u64, d, unequal))
            .collect(),
        ranges: vec![],
    }
}

fn any(lo: u64) -> TakeRange {
    TakeRange { lo, hi: None }
}

fn take(take: u64, digit: u8, unequal: bool) -> Take {
    Take {
        take,
        none: digit & 1 != 0,
        one: digit & 2 != 0,
        two: digit & 4 != 0,
        three: digit & 8 != 0,
        unequal,
    }
}

#[test]
fn grundys_game_matches_the_plain_method() {
    let rules = HeapRules {
        takes: vec![take(0, 4, true)],
        ranges: vec![],
    };
    assert_eq!(fast(&rules, 3000), plain(&rules, 3000));
    let mut seq = HeapSequence::new(rules);
    seq.value(3000, &Limits::default()).unwrap();
    assert_ne!(seq.mask, 0, "Grundy's game has a sparse space");
    assert!(seq.rare.len() < 3000 / 4);
}

#[test]
fn every_width_of_storage_gives_the_same_values() {
    for digits in [&[0u8, 6][..], &[0, 4, 5, 6], &[4]] {
        let rules = octal(digits, digits == [4]);
        let expected = plain(&rules, 1500);
        for storage in [
            CompactValues::Halves(Vec::new()),
            CompactValues::Words(Vec::new()),
        ] {
            assert_eq!(
                fast_stored_as(&rules, 1500, storage),
                expected,
                "{digits:?}"
            );
        }
    }
}

#[test]
fn storage_widens_as_values_grow() {
    let nim = HeapRules {
        takes: vec![],
        ranges: vec![any(1)],
    };
    let values = fast(&nim, 70_000);
    assert!(values.iter().enumerate().all(|(n, &v)| v == n as u32));
    let lasker = HeapRules {
        takes: vec![take(0, 4, false)],
        ranges: vec![any(1)],
    };
    assert_eq!(fast(&lasker, 700), plain(&lasker, 700));
    let mut seq = HeapSequence::new(lasker);
    seq.value(699, &Limits::default()).unwrap();
    assert!(matches!(seq.values, CompactValues::Halves(_)));
}

#[test]
fn officers_and_kayles_match_the_plain_method() {
    for digits in [
        &[0u8, 6][..],
        &[0, 7, 7],
        &[0, 0, 7],
        &[4, 1, 6],
        &[0, 4, 5, 6],
    ] {
        let rules = octal(digits, false);
        assert_eq!(fast(&rules, 2000), plain(&rules, 2000), "{digits:?}");
    }
}

#[test]
fn ranges_of_takes_match_the_plain_method() {
    let range = |lo, hi| TakeRange { lo, hi: Some(hi) };
    for (takes, ranges) in [
        (vec![], vec![any(1)]),
        (vec![take(0, 4, false)], vec![any(1)]),
        (vec![take(2, 3, false)], vec![any(3)]),
        (vec![], vec![range(1, 40)]),
        (vec![], vec![range(3, 50), range(60, 61)]),
        (vec![take(7, 3, false)], vec![range(20, 90), any(200)]),
        (vec![take(0, 4, false)], vec![range(2, 5)]),
        (vec![take(1, 6, false)], vec![range(5, 45), range(30, 70)]),
    ] {
        let rules = HeapRules { takes, ranges };
        assert_eq!(fast(&rules, 600), plain(&rules, 600), "{rules:?}");
    }
}

#[test]
fn a_long_range_costs_little_a_heap() {
    // bash(20000): the values are n mod 20001; 20000 options a heap for 10^5 heaps would be
    // 2 * 10^9 steps, the window makes it 10^5.
    let rules = HeapRules {
        takes: vec![],
        ranges: vec![TakeRange {
            lo: 1,
            hi: Some(20_000),
        }],
    };
    let mut seq = HeapSequence::new(rules);
    for n in [19_999, 20_000, 20_001, 100_000] {
        assert_eq!(seq.value(n, &Limits::default()).unwrap() as u64, n % 20_001);
    }
}

#[test]
fn a_certified_period_answers_huge_heaps() {
    let rules = HeapRules {
        takes: vec![take(1, 7, false), take(2, 7, false)],
        ranges: vec![],
    };
    let mut seq = HeapSequence::new(rules.clone());
    let limits = Limits::default();
    let huge = 10u64.pow(18);
    // Past the memory limit nothing is computed; the engine then looks for a period.
    assert!(matches!(
        seq.value(huge, &limits),
        Err(SolveError::HeapMemory {
            known: 0,
            width: 1,
            ..
        })
    ));
    seq.value(1 << 12, &limits).unwrap();
    assert_eq!(seq.period().map(|(_, p)| p), Some(12));
    let v = seq.value(huge, &limits).unwrap();
    assert!(seq.values.len() < 1000);
    let g = plain(&rules, 200);
    assert_eq!(v, g[100 + ((huge - 100) % 12) as usize]);
}

/// Octal codes (digits after the point) that split after taking 0, 1 or 2, with whether the
/// parts must differ.
const SPLIT_CODES: &[(&[u8], bool)] = &[
    (&[4], true),
    (&[0, 6], false),
    (&[4, 4, 4], true),
    (&[0, 0, 6], false),
    (&[4, 2, 4], false),
    (&[0, 7, 5], true),
];

#[test]
fn blocks_of_rare_pairs_match_the_plain_method() {
    // Splits after taking 0, 1 or 2, equal parts allowed or not: the block's partner reads and
    // the pair of equal parts it leaves out, for every position of the block.
    for &(digits, unequal) in SPLIT_CODES {
        let rules = octal(digits, unequal);
        assert_eq!(
            fast(&rules, 5000),
            plain(&rules, 5000),
            "{digits:?} {unequal}"
        );
    }
}

#[test]
fn a_resumed_sequence_continues_with_the_same_values() {
    let rules = octal(&[4], true);
    let expected = plain(&rules, 3000);
    let mut first = HeapSequence::new(rules.clone());
    first.value(1199, &Limits::default()).unwrap();
    let mut resumed = HeapSequence::continued_from(rules, first.values());
    assert_eq!(resumed.len(), 1200);
    assert_eq!(resumed.mask, first.mask);
    let values: Vec<u32> = (0..3000)
        .map(|n| resumed.value(n, &Limits::default()).unwrap())
        .collect();
    assert_eq!(values, expected);
}

#[test]
fn a_split_listed_twice_is_one_split_of_the_structure() {
    let lasker = |takes: Vec<Take>| {
        HeapRules {
            takes,
            ranges: vec![any(1)],
        }
        .structure()
    };
    let once = lasker(vec![take(0, 4, false)]);
    assert_eq!(lasker(vec![take(0, 4, false), take(0, 4, true)]), once);
    assert_eq!(lasker(vec![take(0, 4, true), take(0, 4, false)]), once);
    assert_eq!(
        lasker(vec![take(0, 4, true), take(0, 4, true)]),
        lasker(vec![take(0, 4, true)])
    );
    assert_eq!(
        lasker(vec![take(2, 4, true), take(0, 4, false)]),
        lasker(vec![take(0, 4, false), take(2, 4, true)])
    );
}

/// Officers by its definition alone: heap `n` leaves heap `n - 1` (when it is a heap) or splits
/// it into two heaps.
fn officers_brute_force(len: usize) -> Vec<u32> {
    let mut g = vec![0u32; len];
    let mut seen = vec![0u64; 64];
    for n in 2..len {
        seen.fill(0);
        let rest = n - 1;
        let mut add = |v: u32| seen[v as usize / 64] |= 1 << (v % 64);
        add(g[rest]);
        for a in 1..=rest / 2 {
            add(g[a] ^ g[rest - a]);
        }
        let w = seen.iter().position(|&w| w != u64::MAX).unwrap();
        g[n] = (64 * w) as u32 + seen[w].trailing_ones();
    }
    g
}

#[test]
fn officers_with_byte_codes_match_a_brute_force() {
    // Past twice its last rare heap (20,627), from the first growth of the storage there
    // (heap 65,536), the values are stored as their byte codes: the scan reads them, and the
    // blocks compare the codes of the candidates.
    let officers = octal(&[0, 6], false);
    let len = 100_000;
    let expected = officers_brute_force(len);
    for kernels in Kernels::every() {
        let mut seq = HeapSequence::with_kernels(officers.clone(), kernels);
        let values: Vec<u32> = (0..len as u64)
            .map(|n| seq.value(n, &Limits::default()).unwrap())
            .collect();
        assert!(matches!(seq.values, CompactValues::Coded(_)));
        let (scans, blocks) = seq.coded_runs;
        assert!(scans > 10_000 && blocks > 10_000, "{:?}", seq.coded_runs);
        assert!(values == expected, "{}", kernels.name());
    }
}

#[test]
fn the_coded_paths_match_the_plain_method_on_random_values() {
    // Values at random below 128 (so that the heaps after them stay below 512), kept in two
    // bytes, under Officers' mask: rare heaps among the first 200 only, so that the scan and the
    // blocks soon run on the codes; several takes, unequal parts or not. The heaps after them
    // are computed by the sequence and by the plain definition from the same values.
    let mask = 0x1ee;
    let is_rare = |v: u32| (v & mask).count_ones().is_multiple_of(2);
    let mut next = wide::tests::stream(3);
    let codes = [
        (&[0u8, 6][..], false),
        (&[0, 6, 4], true),
        (&[0, 4, 4], false),
    ];
    for (digits, unequal) in codes {
        let rules = octal(digits, unequal);
        let first: Vec<u32> = (0..6000)
            .map(|n| {
                let v = (next() % 128) as u32;
                if n < 200 || !is_rare(v) || n == 0 {
                    v
                } else {
                    v ^ 2
                }
            })
            .collect();
        for kernels in Kernels::every() {
            let mut g = first.clone();
            let mut seq = HeapSequence::with_kernels(rules.clone(), kernels);
            g.iter().for_each(|&v| seq.record(v));
            seq.values = CompactValues::Halves(g.iter().map(|&v| v as u16).collect());
            seq.set_mask(0);
            // Coded under the mask, though the values are below 256 and the rare heaps near.
            (seq.code_from, seq.code_near_rare) = (0, true);
            seq.set_mask(mask);
            for n in g.len()..8000 {
                let value = seq.value(n as u64, &Limits::default()).unwrap();
                assert_eq!(
                    value,
                    plain_value(&rules, &g),
                    "{digits:?} {unequal} heap {n}"
                );
                g.push(value);
            }
            let coded = matches!(seq.values, CompactValues::Coded(_));
            assert!(seq.mask == mask && coded, "{digits:?}");
            let (scans, blocks) = seq.coded_runs;
            assert!(
                scans > 1000 && blocks > 1000,
                "{digits:?} {:?}",
                seq.coded_runs
            );
        }
    }
}

#[test]
fn officers_to_a_million_take_a_byte_a_value() {
    // Stored as codes, a byte a heap and the rare heaps' tables; the values are those of the
    // two-byte storage (checked against the plain method in `two_byte_values_match_...`).
    let officers = octal(&[0, 6], false);
    let n = 999_999u64;
    let mut coded = HeapSequence::new(officers.clone());
    coded.value(n, &Limits::default()).unwrap();
    assert!(matches!(coded.values, CompactValues::Coded(_)));
    assert!(coded.values.bytes() <= n as usize + 1);
    let tables = coded.bytes() - coded.values.bytes();
    assert!(tables < 300_000, "{tables}");
    let mut wide = HeapSequence::new(officers);
    wide.code_from = u32::MAX;
    wide.value(n, &Limits::default()).unwrap();
    assert!(matches!(wide.values, CompactValues::Halves(_)) && wide.coded_runs == (0, 0));
    assert!(wide.values().eq(coded.values()));
}

/// The values of `rules` to `len` by the sequence, its one-byte values coded once a value
/// reaches `code_from` under a mask that codes them (near the rare heaps too when `near`), under
/// every kernel set; and whether the codes served under each.
fn fast_coded(rules: &HeapRules, len: usize, code_from: u32, near: bool) -> (Vec<u32>, bool) {
    under_every_kernel_set(rules, len, |seq| {
        (seq.code_from, seq.code_near_rare) = (code_from, near);
    })
}

#[test]
fn values_coded_early_match_the_plain_method() {
    // Coded from small values on: from the first mask that codes them, or (`near` false) from
    // twice the last rare heap, decoded again where a later rare heap or mask needs it.
    let grundys = octal(&[4], true);
    let len = 4000;
    let expected = plain(&grundys, len);
    for (code_from, near) in [(0, true), (4, true), (0, false), (8, false)] {
        let (values, coded) = fast_coded(&grundys, len, code_from, near);
        assert!(values == expected, "Grundy's game {code_from} {near}");
        // Its rare heaps are not yet sparse at 4000: the codes serve only taken near them.
        assert!(coded || !near, "Grundy's game {code_from} {near}");
    }
    let mut served = 0;
    for &(digits, unequal) in SPLIT_CODES.iter().chain(&[(&[0, 4, 5, 6][..], false)]) {
        let rules = octal(digits, unequal);
        let expected = plain(&rules, 2500);
        for near in [true, false] {
            let (values, coded) = fast_coded(&rules, 2500, 0, near);
            assert!(values == expected, "{digits:?} {unequal} {near}");
            served += usize::from(coded);
        }
    }
    assert!(served >= 4, "{served}");
}

#[test]
fn two_byte_values_match_the_plain_method() {
    // Officers' values pass 255 near heap 10^4: from there on they take two bytes, and the
    // two-byte blocks and scan run on the real values.
    let officers = octal(&[0, 6], false);
    let expected = plain(&officers, 20_000);
    for kernels in Kernels::every() {
        let mut seq = HeapSequence::with_kernels(officers.clone(), kernels);
        let values: Vec<u32> = (0..20_000)
            .map(|n| seq.value(n, &Limits::default()).unwrap())
            .collect();
        assert!(matches!(seq.values, CompactValues::Halves(_)));
        assert_ne!(seq.mask, 0);
        assert!(values == expected, "{}", kernels.name());
        // Coded from the first mask that codes the values, decoded again at each rare heap
        // past the others.
        let (coded, _) = fast_coded(&officers, 20_000, 0, false);
        assert!(coded == expected);
        // Rows of 64 flags at first: heaps whose least missing common value is past them have
        // their rare pairs counted one by one again, and the rows lengthen.
        let mut seq = HeapSequence::with_kernels(officers.clone(), kernels);
        seq.wide = wide::WideBlock::with_row_use(64, kernels);
        let values: Vec<u32> = (0..20_000)
            .map(|n| seq.value(n, &Limits::default()).unwrap())
            .collect();
        assert!(values == expected, "{}", kernels.name());
        let largest = *expected.iter().max().unwrap() as usize;
        assert!(
            seq.wide.row_use() > largest,
            "{} {largest}",
            seq.wide.row_use()
        );
    }
    // Small values kept in two bytes from the start: splits after taking 0, 1 or 2, equal
    // parts allowed or not.
    for &(digits, unequal) in SPLIT_CODES.iter().chain(&[(&[0, 4, 5, 6][..], false)]) {
        let rules = octal(digits, unequal);
        assert_eq!(
            fast_stored_as(&rules, 5000, CompactValues::Halves(Vec::new())),
            plain(&rules, 5000),
            "{digits:?} {unequal}"
        );
    }
}

#[test]
fn random_octal_codes_that_split_match_the_plain_method() {
    // Codes of one to three digits, each with a split, from a fixed xorshift stream: the byte
    // scan, the blocks (two rare heaps a pass, and the partial runs) and the plain fallback.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |bound: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % bound
    };
    for _ in 0..12 {
        let len = 1 + next(3) as usize;
        let mut digits: Vec<u8> = (0..len).map(|_| next(8) as u8).collect();
        digits[next(len as u64) as usize] |= 4;
        if digits[0] & 3 != 0 {
            digits[0] &= 4;
        }
        let unequal = next(2) == 1;
        let rules = octal(&digits, unequal);
        assert_eq!(
            fast(&rules, 2500),
            plain(&rules, 2500),
            "{digits:?} {unequal}"
        );
    }
}

#[test]
fn a_run_whose_values_widen_is_refused_when_they_would_not_fit_at_the_wider_width() {
    // Officers by the definition: take one token, leaving one heap or two non-empty ones.
    let mut g: Vec<u32> = vec![0];
    while g.last() < Some(&256) {
        let n = g.len();
        let mut seen = vec![false; 512];
        if n >= 2 {
            seen[g[n - 1] as usize] = true;
            for a in 1..n - 1 {
                seen[(g[a] ^ g[n - 1 - a]) as usize] = true;
            }
        }
        g.push(seen.iter().position(|&s| !s).unwrap() as u32);
    }
    let first_wide = g.len() - 1;
    // Heap 3 * 10^6 fits the limit at a byte a value, not at two.
    let limits = Limits {
        max_memory: 4 << 20,
        ..Limits::default()
    };
    let heap = 3_000_000;
    let mut seq = HeapSequence::new(octal(&[0, 6], false));
    match seq.value(heap, &limits) {
        Err(SolveError::HeapMemory {
            heap: refused,
            width,
            known,
            needs,
            ..
        }) => {
            assert_eq!((refused, width, known), (heap, 2, first_wide));
            assert!(
                needs > 2 * heap as u128 && needs <= 3 * heap as u128,
                "{needs}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(seq.bytes() <= limits.max_memory);
    assert_eq!(seq.values().collect::<Vec<u32>>(), g[..first_wide]);
}
