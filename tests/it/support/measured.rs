//! Running the interpreter as a process and measuring its peak memory as the kernel saw it
//! (`wait4`), for the tests of memory bounds.

use std::process::{Command, Stdio};

/// What one run of the interpreter gave.
pub struct Run {
    /// The exit code, when it exited (not killed by a signal).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The peak resident memory of the process, in KiB.
    pub peak_kib: usize,
}

/// Runs the interpreter with `args` on the one-liner `source`, waiting for it with `wait4`.
pub fn run_measured(args: &[&str], source: &str) -> Run {
    run_measured_args(&[args, &["-e", source]].concat())
}

/// Runs the interpreter with `args`, waiting for it with `wait4`.
pub fn run_measured_args(args: &[&str]) -> Run {
    run_measured_command(Command::new(env!("CARGO_BIN_EXE_grundy")).args(args))
}

/// [`run_measured`] in a process that may map at most `bytes` of address space (`ulimit -v`).
pub fn run_measured_in_address_space(bytes: u64, args: &[&str], source: &str) -> Run {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command.args(args).args(["-e", source]);
    let limit = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: between fork and exec the child only calls `setrlimit`, which is
    // async-signal-safe, on a value of its own.
    unsafe {
        command.pre_exec(move || match libc::setrlimit(libc::RLIMIT_AS, &limit) {
            0 => Ok(()),
            _ => Err(std::io::Error::last_os_error()),
        });
    }
    run_measured_command(&mut command)
}

#[allow(clippy::zombie_processes)] // the child is reaped by `wait4`, which measures it
fn run_measured_command(command: &mut Command) -> Run {
    let out = tempfile::NamedTempFile::new().unwrap();
    let err = tempfile::NamedTempFile::new().unwrap();
    let child = command
        .stdout(Stdio::from(out.reopen().unwrap()))
        .stderr(Stdio::from(err.reopen().unwrap()))
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value, and `wait4` writes one for our child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    Run {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        stdout: std::fs::read_to_string(out.path()).unwrap(),
        stderr: std::fs::read_to_string(err.path()).unwrap(),
        peak_kib: usage.ru_maxrss as usize,
    }
}
