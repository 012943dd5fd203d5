//! Games whose positions form long chains are solved without deep recursion.

#[test]
fn a_chain_of_a_million_positions_does_not_overflow_the_stack() {
    let source = "
        game chain on n { if n > 0 { n -= 1 } }
        game pair on (a, b) { if a > 0 { a -= 1; b += 1 } }
        assert grundy(chain[1000000]) == 0
        assert grundy(chain[999999]) == 1
        assert grundy(pair[1000000, 0]) == 0
        assert outcome(misere chain[100001]) == \"P\"
    ";
    grundy::run_to_string("deep", source).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_long_path_in_a_graph_is_solved_iteratively() {
    let mut source = String::from("game path = graph {\n");
    for i in 0..50_000 {
        source.push_str(&format!("  v{i} -> v{}\n", i + 1));
    }
    source.push_str("}\nassert grundy(path[v0]) == 0\nassert grundy(path[v1]) == 1\n");
    grundy::run_to_string("path", &source).unwrap_or_else(|e| panic!("{e}"));
}
