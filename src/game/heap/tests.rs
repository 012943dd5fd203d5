use super::*;

/// The plain definition: every option, then the mex.
fn plain(rules: &HeapRules, len: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..len {
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
        if let Some(from) = rules.open_from {
            for k in from as usize..=n {
                values.push(g[n - k]);
            }
        }
        g.push((0..).find(|v| !values.contains(v)).unwrap());
    }
    g
}

fn fast(rules: &HeapRules, len: usize) -> Vec<u32> {
    fast_stored_as(rules, len, CompactValues::new())
}

/// [`fast`], with the values kept from the start in the storage given (empty), so that the
/// paths for wide values run on games whose values are small.
fn fast_stored_as(rules: &HeapRules, len: usize, storage: CompactValues) -> Vec<u32> {
    let mut seq = HeapSequence::new(rules.clone());
    seq.values = storage;
    let limits = Limits::default();
    (0..len as u64)
        .map(|n| seq.value(n, &limits).unwrap())
        .collect()
}

fn take(take: u64, digit: u8, unequal: bool) -> Take {
    Take {
        take,
        none: digit & 1 != 0,
        one: digit & 2 != 0,
        two: digit & 4 != 0,
        unequal,
    }
}

#[test]
fn grundys_game_matches_the_plain_method() {
    let rules = HeapRules {
        takes: vec![take(0, 4, true)],
        open_from: None,
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
        let rules = HeapRules {
            takes: digits
                .iter()
                .enumerate()
                .map(|(j, &d)| take(j as u64, d, digits == [4]))
                .collect(),
            open_from: None,
        };
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
        open_from: Some(1),
    };
    let values = fast(&nim, 70_000);
    assert!(values.iter().enumerate().all(|(n, &v)| v == n as u32));
    let lasker = HeapRules {
        takes: vec![take(0, 4, false)],
        open_from: Some(1),
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
        let rules = HeapRules {
            takes: digits
                .iter()
                .enumerate()
                .map(|(j, &d)| take(j as u64, d, false))
                .collect(),
            open_from: None,
        };
        assert_eq!(fast(&rules, 2000), plain(&rules, 2000), "{digits:?}");
    }
}

#[test]
fn open_takes_match_the_plain_method() {
    for (takes, from) in [
        (vec![], 1),
        (vec![take(0, 4, false)], 1),
        (vec![take(2, 3, false)], 3),
    ] {
        let rules = HeapRules {
            takes,
            open_from: Some(from),
        };
        assert_eq!(fast(&rules, 600), plain(&rules, 600));
    }
}

#[test]
fn a_certified_period_answers_huge_heaps() {
    let rules = HeapRules {
        takes: vec![take(1, 7, false), take(2, 7, false)],
        open_from: None,
    };
    let mut seq = HeapSequence::new(rules.clone());
    let limits = Limits::default();
    let huge = 10u64.pow(18);
    let v = seq.value(huge, &limits).unwrap();
    assert_eq!(seq.period().map(|(_, p)| p), Some(12));
    assert!(seq.values.len() < 1000);
    let g = plain(&rules, 200);
    assert_eq!(v, g[100 + ((huge - 100) % 12) as usize]);
}
