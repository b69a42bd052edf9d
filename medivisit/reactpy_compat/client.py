"""ReactPy 1.1's browser client, patched to redraw only the part of the page an update changed, and to keep
what is typed into a field the moment it appears.

The client keeps the page's model as one object that every `layout-update` patches in place, then redraws
from the root: every element of the page is drawn again (Preact compares it all) for a change to a badge.
On a page of ~300 elements that was ~11 ms of the browser's main thread per update, and one click brings
several. Three patches to the bundle change that, and a fourth keeps typing:

- an update copies the objects on its path instead of patching them (the root, the path down to the
  changed element, nothing else), so whatever it did not touch keeps its identity;
- `Element` is memoised on its model's identity, so Preact skips every untouched subtree;
- the redraw request counts instead of flipping a boolean (two updates in one task flipped it back, and
  nothing was drawn);
- a field's effect that copies the server's value into the field's local copy skips its first run: the
  local copy starts as that value anyway, and the first run comes a frame after the field appears, so it
  wiped whatever was typed into a field at once (the first field of a dialog just opened, on a busy
  machine).

The patched bundle is served under a name that carries its own hash (`/_reactpy/assets/client-<hash>.js`)
and the page links it in place of the original (`link_patched`). Each patch must match the bundle exactly
once, and the page must link the original exactly once: a ReactPy upgrade that changes the client fails
`install()` at startup instead of serving a broken page or, quietly, the unpatched client. The same fixes,
against the client's TypeScript source, are in patches/reactpy-client-redraw/ (offered upstream).
"""

from __future__ import annotations

import hashlib
from functools import cache

from reactpy.backend import _common

from medivisit.reactpy_compat._guard import Patch

PATCH = Patch(__name__)
ORIGINAL_URL = "/_reactpy/assets/index.1a2d86bf.js"  # the bundle of reactpy 1.1.0, linked by its index.html

_SET_IN = (
    "function __mvSetIn(root,path,value){const keys=jsonPointer.parse(path),"
    "copy=(o)=>Array.isArray(o)?o.slice():Object.assign({},o),top=copy(root);let node=top;"
    "for(let i=0;i<keys.length-1;i++)node=node[keys[i]]=copy(node[keys[i]]);"
    "node[keys[keys.length-1]]=value;return top}"
)

PATCHES = (
    (
        'function Layout(ee){const te=h({tagName:""})[0],ne=useForceUpdate();return p(()=>ee.client.onMessage('
        '"layout-update",({path:re,model:ie})=>{re===""?Object.assign(te,ie):jsonPointer.set(te,re,ie),ne()}),'
        "[te,ee.client]),Cn.createElement(ClientContext.Provider,{value:ee.client},"
        "Cn.createElement(Element,{model:te}))}",
        _SET_IN + 'function Layout(ee){const te=h({tagName:""})[0],ne=useForceUpdate();return p(()=>'
        'ee.client.onMessage("layout-update",({path:re,model:ie})=>{te.m=re===""?ie:'
        '__mvSetIn(te.m||{tagName:""},re,ie),ne()}),[te,ee.client]),Cn.createElement(ClientContext.Provider,'
        "{value:ee.client},Cn.createElement(Element,{model:te.m||te}))}"
        "Element=Cn.memo(Element,(a,b)=>a.model===b.model);",
    ),
    (
        "function useForceUpdate(){const[,ee]=h(!1);return()=>ee(te=>!te)}",
        "function useForceUpdate(){const[,ee]=h(0);return()=>ee(te=>te+1)}",
    ),
    (
        "Cn.useEffect(()=>ie(ne.value),[ne.value]);",
        "const __mvMounted=_(!1);Cn.useEffect(()=>{__mvMounted.current?ie(ne.value):__mvMounted.current=!0},"
        "[ne.value]);",
    ),
)


def patch_bundle(text: str) -> str:
    """`text` (ReactPy's client bundle) with PATCHES applied; each must match exactly once."""
    for old, new in PATCHES:
        PATCH.require_text(text, old, where="the client bundle")
        text = text.replace(old, new)
    return text


@cache
def patched_bundle() -> str:
    """The installed client bundle, patched."""
    PATCH.check_version()
    original = _common.CLIENT_BUILD_DIR / ORIGINAL_URL.removeprefix("/_reactpy/")
    if not original.is_file():
        PATCH.fail(f"there is no {original}")
    return patch_bundle(original.read_text())


@cache
def patched_url() -> str:
    """Where the page loads the patched bundle from (its name carries its hash, so it is cached for good)."""
    digest = hashlib.sha256(patched_bundle().encode()).hexdigest()[:12]
    return f"/_reactpy/assets/client-{digest}.js"


def link_patched(page: str) -> str:
    """ReactPy's index.html, linking the patched bundle in place of the original."""
    PATCH.require_text(page, ORIGINAL_URL, where="ReactPy's index.html")
    return page.replace(ORIGINAL_URL, patched_url())


def install() -> None:
    """Check that every patch of the bundle, and the page's link to it, still match (the bundle is served
    by a route of the app: medivisit/main.py)."""
    patched_bundle.cache_clear()
    patched_url.cache_clear()
    link_patched((_common.CLIENT_BUILD_DIR / "index.html").read_text())
