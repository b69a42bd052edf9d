"""A layout exited from a cancelled task (a closed websocket) runs none of its effects' clean-ups (reactpy 1.1.0).

Run with plain reactpy 1.1.0 installed (not through the app, which installs the fix): prints the clean-ups run.
"""

import asyncio
import gc

import anyio
from reactpy import component, html, use_effect  # noqa: TID251 - upstream's own hook, as reported
from reactpy.core.layout import Layout

cleaned = []


@component
def Child(n):
    @use_effect(dependencies=[])
    def subscribe():
        return lambda: cleaned.append(n)  # e.g. leave a pub/sub topic

    return html.p(n)


@component
def Page():
    return html.div([Child(n, key=str(n)) for n in range(3)])


async def main():
    with anyio.CancelScope() as scope:  # serve_layout's task, as Starlette cancels it on disconnect
        async with Layout(Page()) as layout:
            await layout.render()
            await asyncio.sleep(0)  # the effects start
            scope.cancel()
            await anyio.sleep(1)
    await asyncio.sleep(0.1)
    gc.collect()
    print("clean-ups run:", sorted(cleaned), "(expected [0, 1, 2])")


asyncio.run(main())
