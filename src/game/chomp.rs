//! Chomp on Young diagrams, valued bottom-up in one flat table a bounding box.
//!
//! A position is a diagram of rows of non-increasing lengths `s[0] >= s[1] >= ... >= 0`, its
//! cell (0, 0) poisoned. A move picks a cell (i, k) other than the poisoned one and eats it with
//! every cell at or beyond it in both directions: each row `j >= i` becomes `min(s[j], k)`.
//!
//! Every diagram of at most `R` rows of at most `C` cells is a lattice path across the `R` by
//! `C` box, so there are `C(R + C, R)` of them, and the table holds one value for each, at its
//! rank in the lexicographic order of `(s[0], ..., s[R - 1])`. That rank is a sum over the rows,
//! `rank(s) = Σ_j T(j, s[j])` with `T(j, v) = C(R - j - 1 + v, R - j)`: the diagrams that agree
//! with `s` above row `j` and are shorter at row `j`, `Σ_{t < v} C(R - j - 1 + t, R - j - 1)`
//! (non-increasing tails of `R - j - 1` rows of at most `t` cells), by the hockey-stick
//! identity. `T(j, ·)` increases, so a diagram inside another, as every option is, has a smaller
//! rank: filling the table in rank order values every option before the diagrams it is one of,
//! with no recursion and no stack.
//!
//! The options cost two additions each. Eating at (i, k) shortens to `k` the rows `i..m(k)`,
//! `m(k)` the number of rows longer than `k`, so the option's rank is
//! `rank(s) - Σ_{i <= j < m} T(j, s[j]) + Σ_{i <= j < m} T(j, k)`: prefix sums over the rows of
//! `T(j, s[j])` (the diagram's own) and of `T(j, k)` (one column, kept for the whole table) give
//! it as `base(k) + prefix(i) - column_k(i)`.
//!
//! The values are one byte each when the box holds at most 256 cells (a value is at most the
//! number of options, the cells less one), two up to 65,536 cells, else four. A table is counted
//! against the state limit (an entry a diagram) and its bytes, with its rank tables, against the
//! memory limit before it is made; a box whose table does not fit is refused with the limit, and
//! Ctrl-C stops a fill.

use super::{Limits, SolveError};

/// The values of Chomp: one table for each bounding box asked so far that no other contains.
#[derive(Default)]
pub struct ChompSolver {
    tables: Vec<Table>,
}

/// The value of every diagram within a box of `rows` by `columns` cells.
struct Table {
    rows: usize,
    columns: usize,
    /// `T(j, v)` at `j * (columns + 1) + v`.
    ranks: Vec<u64>,
    values: Values,
}

/// A table's values, as wide as its largest possible value needs.
enum Values {
    Bytes(Vec<u8>),
    Pairs(Vec<u16>),
    Words(Vec<u32>),
}

/// The rows of a diagram without its empty rows at the end, when `state` is a list of row
/// lengths (non-negative, non-increasing); `None` for any other list, which is no diagram.
pub fn diagram(state: &[i64]) -> Option<&[i64]> {
    let fits = state.iter().all(|&x| x >= 0) && state.windows(2).all(|w| w[0] >= w[1]);
    let rows = state.iter().take_while(|&&x| x > 0).count();
    fits.then(|| &state[..rows])
}

impl ChompSolver {
    /// How many diagrams have a value stored.
    pub fn stored(&self) -> usize {
        self.tables.iter().map(|t| t.values.len()).sum()
    }

    /// The bytes the tables hold.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(Table::bytes).sum()
    }

    /// The value of `state` if it is a diagram within a table made already.
    pub fn get(&self, state: &[i64]) -> Option<u32> {
        let rows = diagram(state)?;
        self.tables.iter().find_map(|t| t.get(rows))
    }

    /// The Grundy value of `state`, `None` when it is no diagram. The table of its bounding box
    /// is made when no table holds it, beside the tables it does not contain (those it contains
    /// go first: it answers all they did), if the tables then fit in the limits beside what the
    /// caller holds, `(bytes, states)`.
    pub fn value(
        &mut self,
        state: &[i64],
        (held, states): (usize, usize),
        limits: &Limits,
    ) -> Option<Result<u64, SolveError>> {
        let rows = diagram(state)?;
        if let Some(v) = self.tables.iter().find_map(|t| t.get(rows)) {
            return Some(Ok(u64::from(v)));
        }
        let (r, c) = (rows.len(), rows.first().map_or(0, |&x| x as usize));
        self.tables.retain(|t| t.rows > r || t.columns > c);
        let made = Table::make(r, c, held + self.bytes(), states + self.stored(), limits);
        Some(made.map(|table| {
            let v = table.get(rows).expect("a diagram within its own box");
            self.tables.push(table);
            u64::from(v)
        }))
    }
}

/// `C(n, k)`, when it fits in a `u64`.
fn binomial(n: u64, k: u64) -> Option<u64> {
    let k = k.min(n.checked_sub(k)?);
    let mut c: u128 = 1;
    for t in 1..=u128::from(k) {
        c = c * (u128::from(n - k) + t) / t;
        if c > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(c).ok()
}

impl Table {
    fn bytes(&self) -> usize {
        self.ranks.capacity() * 8 + self.values.bytes()
    }

    /// The value of the diagram `rows` (no empty row), if it lies within the box.
    fn get(&self, rows: &[i64]) -> Option<u32> {
        if rows.len() > self.rows || rows.first().is_some_and(|&x| x as usize > self.columns) {
            return None;
        }
        let width = self.columns + 1;
        let rank: u64 = (rows.iter().enumerate())
            .map(|(j, &x)| self.ranks[j * width + x as usize])
            .sum();
        Some(self.values.get(rank as usize))
    }

    /// The table of the `rows` by `columns` box, if it fits in the limits beside `held` bytes
    /// and `stored` entries kept.
    fn make(
        rows: usize,
        columns: usize,
        held: usize,
        stored: usize,
        limits: &Limits,
    ) -> Result<Table, SolveError> {
        let over_memory = SolveError::MemoryLimit(limits.max_memory);
        let count = binomial((rows + columns) as u64, rows as u64)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or(over_memory.clone())?;
        let cells = rows.saturating_mul(columns);
        let width = match cells {
            0..=256 => 1,
            257..=65_536 => 2,
            _ => 4,
        };
        // The values, the ranks and the columns' prefix sums (8 bytes each), and what one
        // diagram's options need: its prefix sums and rows longer than each length, and the
        // values seen (a bit each).
        let squares = (rows + 1).saturating_mul(columns + 1);
        (count.checked_mul(width))
            .and_then(|b| b.checked_add(squares.checked_mul(16)?))
            .and_then(|b| b.checked_add((rows + columns) * 16 + cells / 8 + 8))
            .filter(|&b| b.saturating_add(held) <= limits.room())
            .ok_or(over_memory)?;
        if stored.saturating_add(count) > limits.max_states {
            return Err(SolveError::StateLimit(limits.max_states));
        }
        let ranks = rank_terms(rows, columns);
        let fill = Fill {
            rows,
            columns,
            count,
            ranks: &ranks,
        };
        let values = match width {
            1 => Values::Bytes(fill.run(limits)?),
            2 => Values::Pairs(fill.run(limits)?),
            _ => Values::Words(fill.run(limits)?),
        };
        Ok(Table {
            rows,
            columns,
            ranks,
            values,
        })
    }
}

/// `T(j, v) = C(rows - j - 1 + v, rows - j)` at `j * (columns + 1) + v` (each below the number
/// of diagrams, which fits).
fn rank_terms(rows: usize, columns: usize) -> Vec<u64> {
    let width = columns + 1;
    let mut ranks = vec![0u64; rows * width];
    for j in 0..rows {
        let tail = (rows - j - 1) as u64;
        // C(tail + v, tail + 1) from C(tail + v - 1, tail + 1) by Pascal's rule.
        let mut below = 1u128; // C(tail + v - 1, tail), from v = 1
        for v in 1..width {
            let step = u64::try_from(below).expect("below the number of diagrams");
            ranks[j * width + v] = ranks[j * width + v - 1] + step;
            below = below * u128::from(tail + v as u64) / v as u128;
        }
    }
    ranks
}

/// One value of a table, of the width the table's box needs.
trait Entry: Copy + Default {
    fn of(v: u32) -> Self;
    fn value(self) -> u32;
}

impl Entry for u8 {
    fn of(v: u32) -> u8 {
        u8::try_from(v).expect("a value of a box of at most 256 cells")
    }
    fn value(self) -> u32 {
        u32::from(self)
    }
}

impl Entry for u16 {
    fn of(v: u32) -> u16 {
        u16::try_from(v).expect("a value of a box of at most 65,536 cells")
    }
    fn value(self) -> u32 {
        u32::from(self)
    }
}

impl Entry for u32 {
    fn of(v: u32) -> u32 {
        v
    }
    fn value(self) -> u32 {
        self
    }
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Values::Bytes(v) => v.len(),
            Values::Pairs(v) => v.len(),
            Values::Words(v) => v.len(),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Values::Bytes(v) => v.capacity(),
            Values::Pairs(v) => v.capacity() * 2,
            Values::Words(v) => v.capacity() * 4,
        }
    }

    fn get(&self, at: usize) -> u32 {
        match self {
            Values::Bytes(v) => v[at].value(),
            Values::Pairs(v) => v[at].value(),
            Values::Words(v) => v[at].value(),
        }
    }
}

/// The filling of one table, diagram by diagram in rank order.
struct Fill<'a> {
    rows: usize,
    columns: usize,
    count: usize,
    ranks: &'a [u64],
}

impl Fill<'_> {
    fn run<V: Entry>(&self, limits: &Limits) -> Result<Vec<V>, SolveError> {
        let (rows, columns) = (self.rows, self.columns);
        let width = columns + 1;
        // column[k * (rows + 1) + j] = Σ_{j' < j} T(j', k).
        let mut column = vec![0u64; width * (rows + 1)];
        for k in 0..width {
            for j in 0..rows {
                let at = k * (rows + 1) + j;
                column[at + 1] = column[at] + self.ranks[j * width + k];
            }
        }
        let mut values = vec![V::default(); self.count];
        let mut s = vec![0usize; rows];
        let mut prefix = vec![0u64; rows + 1];
        let mut longer = vec![0usize; columns];
        let mut seen = vec![0u64; (rows * columns) / 64 + 1];
        let progress = (self.count >= 1 << 20)
            .then(|| {
                limits
                    .progress
                    .start("Chomp diagrams", "diagrams", self.count as u64)
            })
            .flatten();
        for rank in 0..self.count {
            if rank % 4096 == 4095 {
                limits.check_interrupt()?;
                if let Some(p) = &progress {
                    p.set_done(rank as u64);
                }
            }
            for j in 0..rows {
                prefix[j + 1] = prefix[j] + self.ranks[j * width + s[j]];
            }
            debug_assert_eq!(prefix[rows], rank as u64);
            let first = s.first().copied().unwrap_or(0);
            // longer[k]: the rows longer than k, for k below the first row's length.
            let mut m = s.iter().take_while(|&&x| x > 0).count();
            for (k, longer) in longer.iter_mut().enumerate().take(first) {
                while m > 0 && s[m - 1] <= k {
                    m -= 1;
                }
                *longer = m;
            }
            let cells: usize = s.iter().sum();
            let words = cells / 64 + 1;
            seen[..words].fill(0);
            let rank64 = rank as u64;
            for (k, &m) in longer.iter().enumerate().take(first) {
                let col = &column[k * (rows + 1)..(k + 1) * (rows + 1)];
                let base = rank64.wrapping_sub(prefix[m]).wrapping_add(col[m]);
                // Row 0 at length 0 is the poisoned cell: no move eats it.
                for i in usize::from(k == 0)..m {
                    let option = base.wrapping_add(prefix[i]).wrapping_sub(col[i]);
                    let v = values[option as usize].value() as usize;
                    seen[v / 64] |= 1 << (v % 64);
                }
            }
            let mex = (seen.iter().enumerate())
                .find(|(_, &w)| w != u64::MAX)
                .map(|(at, w)| at * 64 + w.trailing_ones() as usize)
                .expect("a value below the cells");
            values[rank] = V::of(mex as u32);
            // The next diagram in order: the last row that can grow grows by one, the rows
            // below it empty.
            if let Some(j) = (0..rows).rev().find(|&j| {
                let bound = if j == 0 { columns } else { s[j - 1] };
                s[j] < bound
            }) {
                s[j] += 1;
                s[j + 1..].fill(0);
            }
        }
        if let Some(p) = progress {
            p.complete();
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chomp's value of a diagram by the plain mex over its options, memoized, straight from
    /// the definition: the oracle of the table.
    fn plain(s: &[i64], memo: &mut std::collections::HashMap<Vec<i64>, u32>) -> u32 {
        if let Some(&v) = memo.get(s) {
            return v;
        }
        let mut seen = Vec::new();
        for i in 0..s.len() {
            for k in 0..s[i] {
                if i == 0 && k == 0 {
                    continue;
                }
                let mut option = s.to_vec();
                for x in &mut option[i..] {
                    *x = (*x).min(k);
                }
                seen.push(u64::from(plain(&option, memo)));
            }
        }
        let v = super::super::mex(&mut seen) as u32;
        memo.insert(s.to_vec(), v);
        v
    }

    /// Every diagram of at most `rows` rows of at most `columns` cells.
    fn diagrams(rows: usize, columns: i64) -> Vec<Vec<i64>> {
        let mut all = vec![vec![]];
        for _ in 0..rows {
            let mut next = Vec::new();
            for d in &all {
                let bound = d.last().copied().unwrap_or(columns);
                for x in 0..=bound {
                    let mut e = d.clone();
                    e.push(x);
                    next.push(e);
                }
            }
            all = next;
        }
        all
    }

    #[test]
    fn every_diagram_of_small_boxes_has_its_plain_value() {
        let limits = Limits::default();
        let mut memo = std::collections::HashMap::new();
        for rows in 1..=5 {
            for columns in 1..=6i64 {
                let mut solver = ChompSolver::default();
                for d in diagrams(rows, columns) {
                    let v = solver
                        .value(&d, (0, 0), &limits)
                        .expect("a diagram")
                        .unwrap();
                    assert_eq!(v, u64::from(plain(&d, &mut memo)), "{d:?}");
                }
                let boxed = binomial(rows as u64 + columns as u64, rows as u64).unwrap();
                assert_eq!(solver.stored() as u64, boxed, "one table, of the whole box");
            }
        }
    }

    #[test]
    fn the_rank_of_a_diagram_is_its_place_in_order() {
        for (rows, columns) in [(1, 5), (3, 4), (4, 3), (5, 5)] {
            let ranks = rank_terms(rows, columns);
            let mut all = diagrams(rows, columns as i64);
            all.sort();
            assert_eq!(
                all.len() as u64,
                binomial((rows + columns) as u64, rows as u64).unwrap()
            );
            for (place, d) in all.iter().enumerate() {
                let rank: u64 = (d.iter().enumerate())
                    .map(|(j, &x)| ranks[j * (columns + 1) + x as usize])
                    .sum();
                assert_eq!(rank, place as u64, "{d:?}");
            }
        }
    }

    #[test]
    fn lists_that_are_not_diagrams_are_not_valued() {
        let mut solver = ChompSolver::default();
        let limits = Limits::default();
        for list in [&[1, 2][..], &[3, -1], &[2, 0, 1]] {
            assert!(solver.value(list, (0, 0), &limits).is_none(), "{list:?}");
        }
        assert_eq!(diagram(&[3, 2, 0, 0]), Some(&[3, 2][..]));
        assert_eq!(diagram(&[]), Some(&[][..]));
    }

    #[test]
    fn a_box_past_the_limits_is_refused_before_it_is_made() {
        let mut limits = Limits {
            max_memory: 1 << 20,
            ..Limits::default()
        };
        let mut solver = ChompSolver::default();
        let board = [30; 30];
        let refused = solver.value(&board, (0, 0), &limits).unwrap();
        assert_eq!(refused, Err(SolveError::MemoryLimit(1 << 20)));
        limits.max_memory = 1 << 30;
        limits.max_states = 1000;
        let refused = solver.value(&[7; 7], (0, 0), &limits).unwrap();
        assert_eq!(refused, Err(SolveError::StateLimit(1000)));
        assert_eq!(solver.stored(), 0);
    }

    /// A fill looks at Ctrl-C every 4,096 diagrams: raised, it stops the fill, and the table
    /// is not kept.
    #[test]
    fn ctrl_c_stops_a_fill() {
        let limits = Limits::default();
        limits
            .interrupt
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let mut solver = ChompSolver::default();
        let stopped = solver.value(&[8; 8], (0, 0), &limits).unwrap();
        assert_eq!(stopped, Err(SolveError::Interrupted));
        assert_eq!(solver.stored(), 0);
    }

    #[test]
    fn a_larger_box_replaces_the_tables_it_contains() {
        let limits = Limits::default();
        let mut solver = ChompSolver::default();
        solver.value(&[3, 3], (0, 0), &limits).unwrap().unwrap();
        solver.value(&[2, 2, 2], (0, 0), &limits).unwrap().unwrap();
        assert_eq!(solver.tables.len(), 2);
        solver.value(&[4, 4, 4], (0, 0), &limits).unwrap().unwrap();
        assert_eq!(solver.tables.len(), 1);
        assert_eq!(solver.stored(), 35);
    }
}
