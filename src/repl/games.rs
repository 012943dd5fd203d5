//! What `:games` lists: the games of the prelude and those the user declared, each with the
//! comment at the end of its declaration's first line.

use rustc_hash::FxHashMap;

use crate::eval::value::Value;
use crate::syntax;
use crate::syntax::ast::{GameDecl, StmtKind};
use crate::{Session, PRELUDE};

/// A declared game as `:games` shows it.
#[derive(Clone, Debug)]
pub struct GameInfo {
    pub name: String,
    pub header: String,
    pub description: Option<String>,
    /// The text of the declaration, as written.
    pub declaration: String,
}

/// The games of a session: the prelude's with their values when it was loaded, and the
/// descriptions of those declared since.
pub struct Games {
    prelude: Vec<(GameInfo, Option<Value>)>,
    declared: FxHashMap<String, GameInfo>,
}

/// The games an entry declares, and the values their names had before it ran.
pub struct Before(Vec<(GameInfo, Option<Value>)>);

impl Games {
    pub fn new(session: &Session) -> Games {
        let prelude = declared(PRELUDE)
            .into_iter()
            .map(|info| {
                let value = game_value(session, &info.name);
                (info, value)
            })
            .collect();
        Games {
            prelude,
            declared: FxHashMap::default(),
        }
    }

    pub fn snapshot(&self, session: &Session, source: &str) -> Before {
        Before(
            declared(source)
                .into_iter()
                .map(|info| {
                    let value = game_value(session, &info.name);
                    (info, value)
                })
                .collect(),
        )
    }

    pub fn update(&mut self, session: &Session, before: Before) {
        for (info, value) in before.0 {
            let now = game_value(session, &info.name);
            if now.is_some() && now != value {
                self.declared.insert(info.name.clone(), info);
            }
        }
    }

    /// What a bare game name at the prompt answers: its name with its parameters and the
    /// description of its declaration, then the declaration itself. `None` for a name that is
    /// not a game declared with `game` (a `let` value is printed as usual).
    pub fn describe(&self, session: &Session, name: &str) -> Option<String> {
        let now = game_value(session, name)?;
        let (info, origin) = match self.prelude.iter().find(|(info, _)| info.name == name) {
            Some((info, Some(value))) if *value == now => (info, ", from the prelude"),
            _ => (self.declared.get(name)?, ""),
        };
        let (kind, parameters) = match &now {
            Value::Family(family) => (
                "a game family",
                format!(
                    " of {}",
                    crate::eval::expr::plural(family.arity, "parameter")
                ),
            ),
            _ => ("a game", String::new()),
        };
        let description = match &info.description {
            Some(d) => format!(": {d}"),
            None => String::new(),
        };
        Some(format!(
            "{} is {kind}{parameters}{origin}{description}\n{}\n",
            info.header, info.declaration
        ))
    }

    pub fn list(&self, session: &Session) -> String {
        let mut prelude = Vec::new();
        let mut shadowed = Vec::new();
        for (info, value) in &self.prelude {
            let now = game_value(session, &info.name);
            if now.is_some() && now == *value {
                prelude.push(info.clone());
            } else {
                shadowed.push(info.name.clone());
            }
        }
        let mut yours: Vec<GameInfo> = session
            .global_names()
            .into_iter()
            .filter(|name| !prelude.iter().any(|p| &p.name == name))
            .filter_map(|name| {
                let value = game_value(session, &name)?;
                Some(match self.declared.get(&name) {
                    Some(info) => info.clone(),
                    None => GameInfo {
                        header: name.clone(),
                        description: Some(format!("= {value}")),
                        name,
                        declaration: String::new(),
                    },
                })
            })
            .collect();
        yours.sort_by(|a, b| a.name.cmp(&b.name));
        let width = prelude
            .iter()
            .chain(&yours)
            .map(|g| g.header.chars().count())
            .max()
            .unwrap_or(0);
        let mut text = String::from("the prelude:\n");
        text.push_str(&table(&prelude, width));
        if !shadowed.is_empty() {
            text.push_str(&format!("  (shadowed: {})\n", shadowed.join(", ")));
        }
        if !yours.is_empty() {
            text.push_str("yours:\n");
            text.push_str(&table(&yours, width));
        }
        text
    }
}

fn table(games: &[GameInfo], width: usize) -> String {
    games
        .iter()
        .map(|g| match &g.description {
            Some(d) => format!("  {:<width$}  {d}\n", g.header),
            None => format!("  {}\n", g.header),
        })
        .collect()
}

fn game_value(session: &Session, name: &str) -> Option<Value> {
    match session.interpreter.globals().get(name)? {
        value @ (Value::Game(_) | Value::Family(_)) => Some(value.clone()),
        _ => None,
    }
}

/// The games `source` declares, in order.
fn declared(source: &str) -> Vec<GameInfo> {
    let Ok(program) = syntax::parse(source) else {
        return Vec::new();
    };
    let starts: Vec<usize> = program
        .statements
        .iter()
        .map(|s| s.span.start as usize)
        .collect();
    program
        .statements
        .iter()
        .enumerate()
        .filter_map(|(i, stmt)| match &stmt.kind {
            StmtKind::Game(decl) => {
                let next = starts.get(i + 1).copied().unwrap_or(source.len());
                let text = &source[stmt.span.start as usize..stmt.span.end as usize];
                let mut info = info(decl, source, stmt.span.start as usize, next);
                info.declaration = text.trim_end().to_string();
                Some(info)
            }
            _ => None,
        })
        .collect()
}

fn info(decl: &GameDecl, source: &str, start: usize, next: usize) -> GameInfo {
    let name = decl.name.name.clone();
    let header = if decl.params.is_empty() {
        name.clone()
    } else {
        let params: Vec<&str> = decl.params.iter().map(|p| p.name.as_str()).collect();
        format!("{name}({})", params.join(", "))
    };
    let line_end = source[start..]
        .find('\n')
        .map_or(source.len(), |i| start + i);
    let description = source[start..line_end]
        .find('#')
        .map(|i| start + i)
        .filter(|&hash| hash < next)
        .map(|hash| source[hash + 1..line_end].trim().to_string())
        .filter(|d| !d.is_empty());
    GameInfo {
        name,
        header,
        description,
        declaration: String::new(),
    }
}
