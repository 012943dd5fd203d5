//! Functions declared with `let f(n) = ...`: their values, and the host a call's body runs on.

use std::sync::Arc;

use super::expr::Host;
use super::value::{Family, FunctionValue, Value};
use super::{Globals, Interpreter};
use crate::error::{Error, Origin};
use crate::game::Engine;
use crate::span::Span;
use crate::syntax::ast::{names_read, FunctionDecl};

/// Calls nest at most this deep (a function calling itself, or others); deeper is
/// [`Error::Recursion`]. Each call runs on a stack that grows as it needs
/// ([`RED_ZONE`], [`STACK_SEGMENT`]), so the limits are of memory, not of the thread's stack.
pub const MAX_CALL_DEPTH: usize = 10_000;

/// The nested calls, each counted as the depth of its function's body, stop at this sum
/// (about 350 bytes of stack a level, so under 100 MiB): a function whose body is nested
/// more than 25 levels deep may nest fewer than [`MAX_CALL_DEPTH`] calls.
pub const MAX_CALL_LEVELS: usize = 250_000;

/// A call starts a new stack segment when less than this is left.
pub const RED_ZONE: usize = 512 * 1024;

/// The size of each new stack segment.
pub const STACK_SEGMENT: usize = 8 * 1024 * 1024;

/// The value of a function declaration: the globals its body reads are taken as they are now.
pub fn define(decl: &FunctionDecl, origin: &Arc<Origin>, globals: &Globals) -> Value {
    let captured = names_read([&decl.body])
        .into_iter()
        .filter_map(|name| Some((name.to_string(), globals.get(name)?.clone())))
        .collect();
    Value::Function(Arc::new(FunctionValue {
        decl: Arc::new(decl.clone()),
        origin: origin.clone(),
        captured,
        depth: decl.body.depth(),
    }))
}

/// What a function's body sees beyond its parameters: itself, the globals it captured, and
/// the engine and limits of the caller.
pub struct FunctionHost<'h> {
    pub caller: &'h mut dyn Host,
    pub function: &'h Arc<FunctionValue>,
}

impl Host for FunctionHost<'_> {
    fn global(&self, name: &str) -> Option<Value> {
        if name == self.function.decl.name.name {
            return Some(Value::Function(self.function.clone()));
        }
        self.function.captured.get(name).cloned()
    }

    fn instantiate(
        &mut self,
        family: &Family,
        args: Vec<Value>,
        span: Span,
    ) -> Result<Value, Error> {
        self.caller.instantiate(family, args, span)
    }

    fn engine(&mut self) -> Option<&mut Engine> {
        self.caller.engine()
    }

    fn interrupted(&self) -> bool {
        self.caller.interrupted()
    }

    fn max_elements(&self) -> usize {
        self.caller.max_elements()
    }

    fn charge(&self) -> Option<crate::game::budget::Charge> {
        self.caller.charge()
    }

    fn interpreter(&mut self) -> Option<&mut Interpreter> {
        self.caller.interpreter()
    }
}
