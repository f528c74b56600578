//! The small pages: `/login` (token form), `/upload` (a bot's zip, multipart, or a remote or
//! riichi.dev bot; the latter's bot token shown once after),
//! `/bots/{name}/retire` (the confirmation), and the error page any page route answers with.

use askama::Template;

use super::PageContext;
use mjai_sim_viewer::layout::{render, Head};

#[derive(Template)]
#[template(path = "login.html")]
struct Login<'a> {
    head: Head,
    ctx: &'a PageContext,
    error: Option<&'a str>,
}

#[derive(Template)]
#[template(path = "upload.html")]
struct Upload<'a> {
    head: Head,
    ctx: &'a PageContext,
    error: Option<&'a str>,
    max_mib: u64,
    name: &'a str,
    runtime: ZipRuntime,
}

/// Where the server plays an uploaded zip (its league's runtime), as the upload form
/// states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZipRuntime {
    /// One Docker container per seat (`--runtime docker`).
    Docker,
    /// A plain `python3 -u bot.py` process per seat on the server, not sandboxed
    /// (`--runtime process`).
    Process,
}

#[derive(Template)]
#[template(path = "registered.html")]
struct Registered<'a> {
    head: Head,
    ctx: &'a PageContext,
    name: &'a str,
    version: u32,
    token: &'a str,
}

#[derive(Template)]
#[template(path = "retire.html")]
struct Retire<'a> {
    head: Head,
    ctx: &'a PageContext,
    name: &'a str,
}

#[derive(Template)]
#[template(path = "error.html")]
struct Error<'a> {
    head: Head,
    ctx: &'a PageContext,
    status: u16,
    message: &'a str,
}

fn head(title: &str) -> Head {
    Head::linked(format!("{title} — mjai-sim"), "/assets/site.css")
}

/// `/login`: one password field `token`, posted (urlencoded) to `/login`; `error` (one
/// line) after a refused token.
pub fn login_page(ctx: &PageContext, error: Option<&str>) -> String {
    render(&Login { head: head("Log in"), ctx, error })
}

/// `/upload`: fields `name` (filled with `name`, the refused upload's, so the author need
/// not type it again) and `file` (the zip, at most `max_mib` MiB), posted as
/// `multipart/form-data` to `/upload`; the zip's choice says how the server plays it
/// (`runtime`); `error` (one line) after a refused upload.
pub fn upload_page(ctx: &PageContext, max_mib: u64, runtime: ZipRuntime, error: Option<&str>, name: &str) -> String {
    render(&Upload { head: head("Upload a bot"), ctx, error, max_mib, name, runtime })
}

/// The answer of `/upload` for a riichi.dev bot: its bot `token` (64 hex digits), shown
/// this once, and how to connect with it.
pub fn registered_page(ctx: &PageContext, name: &str, version: u32, token: &str) -> String {
    render(&Registered { head: head(&format!("{name} v{version}")), ctx, name, version, token })
}

/// `/bots/{name}/retire`: asks its author to confirm; the button posts (urlencoded, no
/// field) to the same path.
pub fn retire_page(ctx: &PageContext, name: &str) -> String {
    render(&Retire { head: head(&format!("Retire {name}")), ctx, name })
}

/// An error page: the HTTP `status` and a one-line `message`.
pub fn error_page(ctx: &PageContext, status: u16, message: &str) -> String {
    render(&Error { head: head(&status.to_string()), ctx, status, message })
}
