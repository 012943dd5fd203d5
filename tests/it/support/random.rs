//! A small xorshift generator (Marsaglia's 13, 7, 17): the tests' random choices, boards and
//! rules are the same on every run.

pub struct Random(pub u64);

impl Random {
    /// The next number below `n`. The seed must not be 0 (the generator would stay there).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}
