"""bookshelf: a small MCP server on the official Python SDK (mcp 2.x), run over stdio.

The contract lives in contracts/: mcp-contract.lock is the surface this
server publishes (captured with `cargo mcp-contract snapshot --server`),
migrations.toml records every deliberate break. docs/other-languages.md at
the repository root walks through the workflow.
"""

from typing import Annotated, Literal

from mcp.server import MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

server = MCPServer("bookshelf", version="1.0.0")


class Book(BaseModel):
    """A book on the shelf."""

    isbn: str = Field(description="ISBN-13, digits only.")
    title: str
    author: str
    year: int | None = Field(default=None, description="Year of first publication, when known.")
    on_loan: bool = Field(description="Whether someone has borrowed it.")


SHELF: dict[str, Book] = {
    b.isbn: b
    for b in [
        Book(isbn="9780261103573", title="The Fellowship of the Ring", author="J. R. R. Tolkien", year=1954, on_loan=False),
        Book(isbn="9780441172719", title="Dune", author="Frank Herbert", year=1965, on_loan=True),
        Book(isbn="9780553283686", title="Hyperion", author="Dan Simmons", year=1989, on_loan=False),
    ]
}


class SearchResult(BaseModel):
    books: list[Book]
    total: int = Field(description="How many books matched, before the limit.")


@server.tool(
    title="Search the shelf",
    annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False),
)
def search_books(
    query: Annotated[str, Field(description="Words to look for in titles and authors.")],
    limit: Annotated[int, Field(ge=1, le=50, description="The most books to return.")] = 10,
    available_only: Annotated[bool, Field(description="Leave out books that are on loan.")] = False,
) -> SearchResult:
    """Find books whose title or author contains every word of the query."""
    words = query.lower().split()
    hits = [
        b
        for b in SHELF.values()
        if all(w in f"{b.title} {b.author}".lower() for w in words) and not (available_only and b.on_loan)
    ]
    return SearchResult(books=hits[:limit], total=len(hits))


@server.tool(
    title="Lend a book",
    annotations=ToolAnnotations(destructiveHint=False, idempotentHint=False, openWorldHint=False),
)
def lend_book(
    isbn: Annotated[str, Field(pattern=r"^[0-9]{13}$", description="ISBN-13 of the book, digits only.")],
    borrower: Annotated[str, Field(min_length=1, description="Who takes the book.")],
    weeks: Annotated[Literal[1, 2, 4], Field(description="Loan period in weeks.")] = 2,
) -> Book:
    """Mark a book as on loan. Fails when it is already out or not on the shelf."""
    book = SHELF.get(isbn)
    if book is None:
        raise ValueError(f"no book with ISBN {isbn} on the shelf")
    if book.on_loan:
        raise ValueError(f"{book.title} is already on loan")
    book.on_loan = True
    return book


@server.tool(title="Return a book", annotations=ToolAnnotations(idempotentHint=True, openWorldHint=False))
def return_book(
    isbn: Annotated[str, Field(pattern=r"^[0-9]{13}$", description="ISBN-13 of the book, digits only.")],
) -> str:
    """Mark a book as back on the shelf. Returning a book twice is harmless."""
    book = SHELF.get(isbn)
    if book is None:
        raise ValueError(f"no book with ISBN {isbn} on the shelf")
    book.on_loan = False
    return f"{book.title} is back on the shelf"


if __name__ == "__main__":
    server.run("stdio")
