//! `sente study ttt`'s printout: every table of SEEDS 000 (docs/sources.md) as computed here,
//! beside the paper's figures, and the GA's SVG plot.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

use super::ga::{run_ga, GaConfig, GaResult, Replacement};
use super::mcts::{flat_line, LineStep, Tree, PAPER_FIRST_MOVES, PAPER_LINE, SIMULATIONS};
use super::{cases, census, distribution, fitness, strategies, Census, Reading, Strategies};

/// What `sente study ttt` runs.
#[derive(Clone, Debug)]
pub struct StudyOptions {
    /// Seed of the GA (and of the Monte-Carlo searches).
    pub seed: u64,
    /// The fitness reading's name (see [`Reading::NAMED`]).
    pub reading: String,
    /// The GA's replacement.
    pub replacement: Replacement,
    /// Where to write the GA plot (`None`: no plot).
    pub svg: Option<PathBuf>,
}

impl Default for StudyOptions {
    fn default() -> Self {
        StudyOptions {
            seed: 1,
            reading: "fresh".into(),
            replacement: GaConfig::default().replacement,
            svg: None,
        }
    }
}

/// The paper's fitness figures: max, min, median, mean.
const PAPER_FITNESS: (i32, i32, f64, f64) = (39, -36, -3.0, -3.83);

fn mark(ours: i64, paper: i64) -> String {
    let m = if ours == paper { "yes" } else { "NO" };
    format!("{ours:>10} {paper:>10}   {m}")
}

fn sequence_text(reading: &Reading, seq: &[u8]) -> String {
    let moves: Vec<String> = seq.iter().map(|s| s.to_string()).collect();
    let mut board = [0usize; 9];
    for (i, &s) in seq.iter().enumerate() {
        if let Some(b) = board.get_mut(s as usize) {
            *b = i + 1;
        }
    }
    let mut t = format!("moves (squares 0..8): {}\n", moves.join(" "));
    t.push_str("  move numbers on the board (odd = black):\n");
    for r in 0..3 {
        t.push_str("    ");
        for c in 0..3 {
            match board[r * 3 + c] {
                0 => t.push_str(" ."),
                m => {
                    let _ = write!(t, "{m:>2}");
                }
            }
        }
        t.push('\n');
    }
    let cs: Vec<String> = cases(reading, seq)
        .iter()
        .map(|c| format!("{}({:+})", *c as u8, c.reward()))
        .collect();
    let _ = writeln!(t, "  cases of moves 2..: {}", cs.join(" "));
    t
}

fn write_census(c: &Census, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "Pattern census                               ours      paper   match"
    )?;
    let rows = [
        ("patterns, black on the centre      ", c.patterns, 6561),
        ("after case 1 (impossible counts)   ", c.after_case1, 2123),
        (
            "after case 2 as stated             ",
            c.after_case2_stated,
            1837,
        ),
        ("  + double lines through the centre", c.normal, 1837),
        ("base cases (8 symmetries)          ", c.base, 255),
        (
            "  removed by symmetry              ",
            c.normal - c.base,
            1582,
        ),
    ];
    for (label, ours, paper) in rows {
        writeln!(out, "{label}   {}", mark(ours as i64, paper))?;
    }
    writeln!(
        out,
        "  (base cases under case 2 as stated: {}; the extra exclusion is explained in the docs)",
        c.base_stated
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "Table 5: normal patterns and base cases by depth (ours; the paper's cells are not in our copy)"
    )?;
    writeln!(
        out,
        "depth | normal: black  white   draw  unfin  total | base: black  white   draw  unfin  total"
    )?;
    let mut tn = [0; 4];
    let mut tb = [0; 4];
    let row = |label: String, n: [usize; 4], b: [usize; 4]| {
        format!(
            "{label:>5} |   {:>11} {:>6} {:>6} {:>6} {:>6} |  {:>10} {:>6} {:>6} {:>6} {:>6}",
            n[0],
            n[1],
            n[2],
            n[3],
            n.iter().sum::<usize>(),
            b[0],
            b[1],
            b[2],
            b[3],
            b.iter().sum::<usize>()
        )
    };
    for d in 1..=9 {
        let (n, b) = (c.normal_by_depth[d], c.base_by_depth[d]);
        for k in 0..4 {
            tn[k] += n[k];
            tb[k] += b[k];
        }
        writeln!(out, "{}", row(d.to_string(), n, b))?;
    }
    writeln!(out, "{}", row("total".into(), tn, tb))?;
    writeln!(out)
}

fn write_strategies(s: &Strategies, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "Strategy census                              ours      paper   match"
    )?;
    let rows = [
        ("black wins (orders of patterns)", s.orders[0], 30480),
        ("white wins                     ", s.orders[1], 7344),
        ("draws                          ", s.orders[2], 4608),
        ("total strategies               ", s.total_orders(), 42432),
        (
            "  white wins at depth 8        ",
            s.orders_by_depth[8][1],
            6912,
        ),
        (
            "possible strategies (no earlier end)",
            s.possible.len(),
            25872,
        ),
    ];
    for (label, ours, paper) in rows {
        writeln!(out, "{label:<37} {}", mark(ours as i64, paper))?;
    }
    writeln!(
        out,
        "by depth:  depth  orders(B/W/D)            possible(B/W/D)"
    )?;
    for d in 5..=9 {
        let (o, p) = (s.orders_by_depth[d], s.possible_by_depth[d]);
        writeln!(
            out,
            "           {d:>5}  {:>6} {:>6} {:>6}     {:>6} {:>6} {:>6}",
            o[0], o[1], o[2], p[0], p[1], p[2]
        )?;
    }
    writeln!(out)
}

fn write_fitness(
    opts: &StudyOptions,
    reading: &Reading,
    s: &Strategies,
    fit: &[i32],
    out: &mut dyn Write,
) -> io::Result<()> {
    let d = distribution(fit);
    let (pmax, pmin, pmed, pmean) = PAPER_FITNESS;
    writeln!(
        out,
        "Strategy fitness over the possible strategies (Table 6 rewards, reading '{}')",
        opts.reading
    )?;
    writeln!(
        out,
        "                                         ours      paper   match"
    )?;
    writeln!(
        out,
        "max                               {}",
        mark(d.max as i64, pmax as i64)
    )?;
    writeln!(
        out,
        "min                               {}",
        mark(d.min as i64, pmin as i64)
    )?;
    let yes = |ok: bool| if ok { "yes" } else { "NO" };
    writeln!(
        out,
        "median                            {:>10.1} {:>10}   {}",
        d.median,
        pmed,
        yes((d.median - pmed).abs() < 1e-9)
    )?;
    writeln!(
        out,
        "mean                              {:>10.2} {:>10}   {}",
        d.mean,
        pmean,
        yes((d.mean - pmean).abs() < 0.005)
    )?;
    writeln!(
        out,
        "standard deviation                {:>10.2} {:>10}",
        d.sd, "-"
    )?;
    writeln!(
        out,
        "every named reading (--fitness NAME):   max    min  median    mean  paper's MCTS line"
    )?;
    for (name, r) in Reading::NAMED {
        let f: Vec<i32> = s.possible.iter().map(|q| fitness(&r, q)).collect();
        let e = distribution(&f);
        writeln!(
            out,
            "  {name:<36} {:>4} {:>6} {:>7.1} {:>7.2}  {:+}",
            e.max,
            e.min,
            e.median,
            e.mean,
            fitness(&r, &PAPER_LINE)
        )?;
    }
    writeln!(
        out,
        "  paper                                  {pmax:>4} {pmin:>6} {pmed:>7.1} {pmean:>7.2}  +36"
    )?;
    let mut hist: Vec<(i32, usize)> = Vec::new();
    for &f in fit {
        let bin = f.div_euclid(5) * 5;
        match hist.iter_mut().find(|(b, _)| *b == bin) {
            Some((_, n)) => *n += 1,
            None => hist.push((bin, 1)),
        }
    }
    hist.sort_unstable();
    writeln!(out, "distribution (Fig. 7), bins of 5:")?;
    let top = hist.iter().map(|&(_, n)| n).max().unwrap_or(1).max(1);
    for (b, n) in hist {
        let bar = "#".repeat((n * 50).div_ceil(top));
        writeln!(out, "  {b:>4}..{:<4} {n:>6} {bar}", b + 4)?;
    }
    let imax = (0..fit.len()).max_by_key(|&i| (fit[i], std::cmp::Reverse(i)));
    let imin = (0..fit.len()).min_by_key(|&i| (fit[i], i));
    if let (Some(a), Some(z)) = (imax, imin) {
        writeln!(
            out,
            "best sequence, fitness {:+} (paper's GA best: +39)",
            fit[a]
        )?;
        write!(out, "{}", sequence_text(reading, &s.possible[a]))?;
        writeln!(
            out,
            "worst sequence, fitness {:+} (paper's worst: -36)",
            fit[z]
        )?;
        write!(out, "{}", sequence_text(reading, &s.possible[z]))?;
        let n_best = fit.iter().filter(|&&f| f == d.max).count();
        writeln!(out, "strategies at the maximum: {n_best}")?;
    }
    writeln!(out)
}

fn line_rows(steps: &[LineStep], out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "  move   pos 0  pos 1  pos 2  pos 3  pos 4  pos 5  pos 6  pos 7  pos 8  played"
    )?;
    for (i, step) in steps.iter().enumerate() {
        let cells: String = step
            .values
            .iter()
            .map(|v| match v {
                Some(v) => format!(" {v:>6.3}"),
                None => "      .".to_string(),
            })
            .collect();
        writeln!(out, "  {:>4}{cells}  {}", i + 1, step.chosen)?;
    }
    Ok(())
}

fn write_mcts(opts: &StudyOptions, reading: &Reading, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "Table 2: Monte-Carlo values of each move, {SIMULATIONS} simulations per row, random \
         playouts, black's score +1 win / 0 draw / -1 loss"
    )?;
    let paper: String = PAPER_FIRST_MOVES
        .iter()
        .map(|v| format!(" {v:>6.3}"))
        .collect();
    writeln!(out, "  paper{paper}  (first move)")?;
    let flat = flat_line(SIMULATIONS, opts.seed);
    writeln!(
        out,
        "as the paper: each row shares the simulations equally among the moves, the line takes \
         the best for the side to move"
    )?;
    line_rows(&flat, out)?;
    let seq: Vec<u8> = flat.iter().map(|s| s.chosen).collect();
    write!(out, "  line, fitness {:+}: ", fitness(reading, &seq))?;
    write!(out, "{}", sequence_text(reading, &seq))?;
    let tree = Tree::search(SIMULATIONS, opts.seed);
    writeln!(
        out,
        "UCT tree search ({SIMULATIONS} simulations from the empty board, {} nodes), min-max \
         line through its averages",
        tree.size()
    )?;
    line_rows(&tree.minmax_line(), out)?;
    let seq: Vec<u8> = tree.minmax_line().iter().map(|s| s.chosen).collect();
    write!(out, "  line, fitness {:+}: ", fitness(reading, &seq))?;
    write!(out, "{}", sequence_text(reading, &seq))?;
    write!(
        out,
        "the paper's MCTS line (read from its Table 2), fitness {:+} (paper: +36): ",
        fitness(reading, &PAPER_LINE)
    )?;
    write!(out, "{}", sequence_text(reading, &PAPER_LINE))?;
    writeln!(out)
}

fn write_ga(
    opts: &StudyOptions,
    reading: &Reading,
    s: &Strategies,
    fit: &[i32],
    out: &mut dyn Write,
) -> io::Result<GaResult> {
    let cfg = GaConfig {
        replacement: opts.replacement,
        ..GaConfig::default()
    };
    let ga = run_ga(&s.possible, fit, &cfg, opts.seed);
    writeln!(
        out,
        "Genetic algorithm: population {}, roulette wheel ({:?} scaling), crossover {} around \
         move 1, mutation {}, {} generations, replacement {:?}, seed {}",
        cfg.population,
        cfg.scaling,
        cfg.crossover,
        cfg.mutation,
        cfg.generations,
        cfg.replacement,
        opts.seed
    )?;
    writeln!(out, "generation   best     mean     SD")?;
    for st in &ga.stats {
        writeln!(
            out,
            "{:>10} {:>6} {:>8.2} {:>6.2}",
            st.generation, st.best, st.mean, st.sd
        )?;
    }
    writeln!(
        out,
        "crossover children that were impossible (mutated): {}",
        ga.impossible_children
    )?;
    let max = fit.iter().copied().max().unwrap_or(0);
    match ga.first_reaching(max) {
        Some(g) => writeln!(out, "first generation holding the maximum {max:+}: {g}")?,
        None => writeln!(out, "the maximum {max:+} was never reached")?,
    }
    if let (Some(first), Some(last)) = (ga.stats.first(), ga.stats.last()) {
        writeln!(
            out,
            "                         ours (first -> last)        paper"
        )?;
        writeln!(
            out,
            "best fitness             {:>5} -> {:<5}               34 -> 39",
            first.best, last.best
        )?;
        writeln!(
            out,
            "mean fitness             {:>5.1} -> {:<5.1}             -3.8 -> 35.9",
            first.mean, last.mean
        )?;
        writeln!(
            out,
            "SD                       {:>5.1} -> {:<5.1}             12.1 -> 3.0",
            first.sd, last.sd
        )?;
    }
    writeln!(
        out,
        "best sequence found by the GA, fitness {:+}:",
        ga.best.1
    )?;
    if let Some(q) = s.possible.get(ga.best.0) {
        write!(out, "{}", sequence_text(reading, q))?;
    }
    writeln!(out)?;
    writeln!(out, "The same GA over ten seeds:")?;
    writeln!(
        out,
        "      seed  first {max:+}  final best  final mean  final SD"
    )?;
    let mut kept = 0;
    for k in 0..10 {
        let seed = opts.seed.wrapping_add(k);
        let r = run_ga(&s.possible, fit, &cfg, seed);
        let Some(last) = r.stats.last() else { continue };
        kept += usize::from(last.best == max);
        let first = r
            .first_reaching(max)
            .map_or("never".to_string(), |g| g.to_string());
        writeln!(
            out,
            "{seed:>10}  {first:>9}  {:>10}  {:>10.1}  {:>8.1}",
            last.best, last.mean, last.sd
        )?;
    }
    writeln!(
        out,
        "maximum held at the last generation: {kept} of 10 seeds"
    )?;
    Ok(ga)
}

/// The GA's curve as an SVG: best, mean and mean +- SD per generation.
pub fn ga_svg(ga: &GaResult) -> String {
    let (w, h, left, top, right, bottom) = (720.0, 420.0, 60.0, 30.0, 20.0, 50.0);
    let (lo, hi) = (-40.0, 45.0);
    let gens = ga.stats.len().saturating_sub(1).max(1) as f64;
    let x = |g: usize| left + (w - left - right) * g as f64 / gens;
    let y = |v: f64| top + (h - top - bottom) * (hi - v.clamp(lo, hi)) / (hi - lo);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    for v in (-40..=40).step_by(10) {
        let yy = y(v as f64);
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{v}</text>"##,
            w - right,
            left - 6.0,
            yy + 4.0
        );
    }
    let path = |f: &dyn Fn(&super::ga::GenStats) -> f64| {
        ga.stats
            .iter()
            .enumerate()
            .map(|(i, st)| {
                format!(
                    "{}{:.1},{:.1}",
                    if i == 0 { "M" } else { "L" },
                    x(st.generation),
                    y(f(st))
                )
            })
            .collect::<String>()
    };
    let band_hi = path(&|st| st.mean + st.sd);
    let band_lo = path(&|st| st.mean - st.sd);
    let series = [
        (band_hi, "#9ecae1", "mean + SD"),
        (band_lo, "#9ecae1", "mean - SD"),
        (path(&|st| st.mean), "#3182bd", "mean"),
        (path(&|st| st.best as f64), "#e6550d", "best"),
    ];
    for (i, (d, colour, label)) in series.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="2"/>"#
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" fill="{colour}">{label}</text>"#,
            left + 10.0 + 110.0 * i as f64,
            h - 12.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="18" text-anchor="middle">GA fitness by generation (the 2014 tic-tac-toe GA paper, Fig. 10)</text>"#,
        w / 2.0
    );
    let _ = writeln!(s, "</svg>");
    s
}

/// Runs the whole study and writes the tables to `out` (and the plot, if asked).
pub fn run(opts: &StudyOptions, out: &mut dyn Write) -> io::Result<()> {
    let reading = Reading::from_name(&opts.reading).ok_or_else(|| {
        let names: Vec<&str> = Reading::NAMED.iter().map(|(n, _)| *n).collect();
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "unknown fitness reading '{}' (one of {})",
                opts.reading,
                names.join(", ")
            ),
        )
    })?;
    writeln!(
        out,
        "Tic-tac-toe GA study (the 2014 journal paper on tic-tac-toe strategies by a genetic algorithm), black opens on the centre"
    )?;
    writeln!(
        out,
        "Readings of the paper: see the module docs of sente::study::ttt."
    )?;
    writeln!(out)?;
    let c = census();
    write_census(&c, out)?;
    let s = strategies(&c);
    write_strategies(&s, out)?;
    let fit: Vec<i32> = s.possible.iter().map(|q| fitness(&reading, q)).collect();
    write_fitness(opts, &reading, &s, &fit, out)?;
    write_mcts(opts, &reading, out)?;
    let ga = write_ga(opts, &reading, &s, &fit, out)?;
    if let Some(path) = &opts.svg {
        std::fs::write(path, ga_svg(&ga))?;
        // The whole path: the default lands in the current folder, which should not surprise.
        let written = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        writeln!(
            out,
            "GA plot written to {} (--ga-svg to choose)",
            written.display()
        )?;
    }
    Ok(())
}
