//! Tokens on a directed graph: a token moves along one edge.

use rustc_hash::FxHashMap;

use super::{Emit, Game, SolveError};

/// A directed graph on named nodes; a state is one token, given by its node's index.
#[derive(Clone, Debug)]
pub struct Graph {
    pub name: String,
    nodes: Vec<String>,
    index: FxHashMap<String, usize>,
    edges: Vec<Vec<usize>>,
}

impl Graph {
    pub fn new(name: &str) -> Graph {
        Graph {
            name: name.to_string(),
            nodes: Vec::new(),
            index: FxHashMap::default(),
            edges: Vec::new(),
        }
    }

    /// The graph of a declaration's lines, each a node and the nodes it has an edge to, in the
    /// order written (a node is numbered where it first appears).
    pub fn from_lines<'a, To>(name: &str, lines: impl IntoIterator<Item = (&'a str, To)>) -> Graph
    where
        To: IntoIterator<Item = &'a str>,
    {
        let mut graph = Graph::new(name);
        for (from, to) in lines {
            let from = graph.node(from);
            for to in to {
                let to = graph.node(to);
                graph.edge(from, to);
            }
        }
        graph
    }

    /// The index of the node, added if new.
    pub fn node(&mut self, name: &str) -> usize {
        if let Some(i) = self.index(name) {
            return i;
        }
        self.index.insert(name.to_string(), self.nodes.len());
        self.nodes.push(name.to_string());
        self.edges.push(Vec::new());
        self.nodes.len() - 1
    }

    pub fn edge(&mut self, from: usize, to: usize) {
        if !self.edges[from].contains(&to) {
            self.edges[from].push(to);
        }
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    pub fn node_name(&self, index: usize) -> &str {
        &self.nodes[index]
    }
}

impl Game for Graph {
    fn heap_like(&self) -> bool {
        true
    }

    fn options(&self, state: &[i64], emit: &mut Emit<'_>) -> Result<(), SolveError> {
        for &to in &self.edges[state[0] as usize] {
            if emit(&[to as i64]).is_break() {
                break;
            }
        }
        Ok(())
    }

    fn describe(&self, state: &[i64]) -> String {
        format!("{}[{}]", self.name, self.node_name(state[0] as usize))
    }
}
