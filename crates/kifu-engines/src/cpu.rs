//! CPU time of this process and of its reaped children (the engines), for the report of
//! what a match costs beyond the engines' own thinking.

/// CPU seconds (user + system) of this process and of its waited-for children; `None`
/// where `/proc` is not there to ask (the figures are Linux's `/proc/self/stat`, fields 14–17
/// of proc(5)).
pub fn cpu_seconds() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces; the fields after it start past its `)`.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // rest starts at field 3 (state): utime is field 14, so index 11.
    let num = |i: usize| fields.get(i)?.parse::<f64>().ok();
    let ticks = clock_ticks();
    let own = (num(11)? + num(12)?) / ticks;
    let children = (num(13)? + num(14)?) / ticks;
    Some((own, children))
}

/// `sysconf(_SC_CLK_TCK)`: 100 on every Linux the project runs on, which proc(5) documents
/// as the usual value; read from `getconf` would need a process, so it is taken as 100.
fn clock_ticks() -> f64 {
    100.0
}
