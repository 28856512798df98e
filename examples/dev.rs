fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args[1].as_str() {
        "bench" => {
            let d: u32 = args[2].parse().unwrap();
            println!("{}", sente::bench::run_gomoku(d));
        }
        _ => {}
    }
}
