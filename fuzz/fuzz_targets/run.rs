//! Parses, checks and runs arbitrary text with small limits: nothing may panic, overflow the
//! stack, or run past its limits. A watchdog interrupts any input that runs over two seconds,
//! as Ctrl-C would.
#![no_main]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use grundy::game::Limits;
use libfuzzer_sys::fuzz_target;

static CURRENT: Mutex<Option<(Instant, Arc<AtomicBool>)>> = Mutex::new(None);
static WATCHDOG: Once = Once::new();

fn watch() {
    WATCHDOG.call_once(|| {
        std::thread::spawn(|| loop {
            std::thread::sleep(Duration::from_millis(100));
            if let Some((start, flag)) = CURRENT.lock().unwrap().as_ref() {
                if start.elapsed() > Duration::from_secs(2) {
                    flag.store(true, Ordering::Relaxed);
                }
            }
        });
    });
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    watch();
    let interrupt = Arc::new(AtomicBool::new(false));
    *CURRENT.lock().unwrap() = Some((Instant::now(), interrupt.clone()));
    let limits = Limits {
        max_states: 20_000,
        max_memory: 64 << 20,
        interrupt,
        ..Limits::default()
    };
    let _ = grundy::run_to_string_with("fuzz", source, limits);
    *CURRENT.lock().unwrap() = None;
});
