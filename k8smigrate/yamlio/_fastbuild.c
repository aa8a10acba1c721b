/* The tree builder of pybuild.py, in C on libyaml: the same tree, several times faster.
 *
 * k8smigrate's hottest loop is building the tree of a wanted document: every node gets a span
 * in the text, every entry its head comments, key and line end. In Python (pybuild.py) that loop
 * costs most of a run on real repositories (a 100 KB CRD takes 12 ms), and a third of it is
 * only delivering libyaml's events to Python as objects. This module reads libyaml's events in
 * C and makes the very objects pybuild.py makes (Scalar, Mapping, Sequence, Alias, Entry, Item,
 * Source, EntrySource), attribute for attribute, in the order pybuild.py sets them.
 *
 * It takes only what it is sure of. It returns None, and pybuild.py builds the tree itself,
 * for: anything libyaml rejects, tags holding a flow indicator (below), and every construct
 * pybuild.py reports as a problem (duplicate keys, complex or empty keys, deep nesting). So the
 * messages of problems have one source, and the equality of both builders is what a test
 * checks (tests/test_fastbuild.py) on the corpus and on generated YAML. Indices are code
 * points, as Python's: libyaml counts characters, and the text is read through its kind.
 *
 * Comments are rare: where pybuild.py would read one, this module calls the same Python
 * functions (comments.comment_lines, comments.eol_comment) on the same slice.
 *
 * The libyaml it reads with is ruamel.yaml.clib's own: ``bind`` finds its functions in that
 * extension's shared object (which exports them) without importing it, so the C builder, the
 * C reader, the acceptance check and ruamel's CParser are one parser, whatever libyaml the
 * system has (releases differ in what they accept: 0.2.5 reads ``{1:1}``, ruamel's rejects
 * it). The types come from libyaml_abi.h, so neither libyaml nor its headers are needed to
 * build it. Before binding, a probe text is parsed and its events checked, so a libyaml whose
 * structures are not laid out as that header says is never used (the Python builder then runs).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <structmember.h>

#include "_prefetch.h"
#include "libyaml_abi.h"
#ifndef _WIN32
#include <dlfcn.h>
#endif
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define MAX_DEPTH 500

enum { T_SCALAR, T_ALIAS, T_MAP, T_SEQ };

/* ------------------------------------------------------------------ configuration */

static PyTypeObject *ScalarT, *MappingT, *SequenceT, *AliasT, *EntryT, *ItemT, *SourceT, *EntrySourceT;
static PyObject *comment_lines_fn, *eol_comment_fn;
static PyObject *empty_tuple, *empty_str;

static PyObject *S_src, *S_anchor, *S_tag, *S_dirty, *S_line, *S_value, *S_style, *S_new_data, *S_has_new_data;
static PyObject *S_entries, *S_flow, *S_first, *S_items, *S_name, *S_target;
static PyObject *S_start, *S_end, *S_col, *S_open_end, *S_close_start, *S_sep;
static PyObject *S_parent_id, *S_index, *S_head_start, *S_line_start, *S_key_start, *S_key_end, *S_value_start,
    *S_value_end;
static PyObject *S_key, *S_head_comments, *S_eol_comment, *S_renamed, *S_carried;
static PyObject *STYLE_SQ, *STYLE_DQ, *STYLE_LIT, *STYLE_FOLD;

/* The newline table of the last text: a file's wanted documents are built one call each. */
static PyObject *nl_text = NULL;
static Py_ssize_t *nl = NULL;
static Py_ssize_t nl_count = 0;
static Py_ssize_t nl_hint = 0; /* newlines_before's last answer: 0 <= nl_hint <= nl_count */

/* ------------------------------------------------------------------ building state */

typedef struct {
    PyObject *node; /* owned */
    PyObject *src;  /* owned: the node's Source */
    int type;
    int flow;
    int block_scalar; /* a scalar in literal or folded style */
    Py_ssize_t start, end;
    Py_ssize_t cend; /* content end of a finished block collection */
    long line;
} NodeInfo;

typedef struct {
    NodeInfo key; /* maps only */
    NodeInfo val;
    PyObject *child; /* owned: the Entry or Item */
} Child;

typedef struct {
    NodeInfo self;
    int is_map;
    int has_pending;
    NodeInfo pending;
    PyObject *keys; /* owned: the key values seen (maps) */
    PyObject *list; /* borrowed from the node: entries or items */
    Child *kids;
    Py_ssize_t n, cap;
} Frame;

typedef struct {
    PyObject *obj;
    int kind; /* PyUnicode_KIND: indices are code points, as Python's */
    const void *data;
    Py_ssize_t size;
} Text;

#define CH(tx, i) PyUnicode_READ((tx)->kind, (tx)->data, (i))

typedef struct {
    const Text *t;   /* the whole text */
    Py_ssize_t size; /* its length */
    Py_ssize_t offset;
    Frame *stack;
    Py_ssize_t depth;
    PyObject *anchors; /* owned dict */
    int shares;
    int bail;      /* a construct left to pybuild.py */
    int has_root;
    NodeInfo root;
} Builder;

static void info_clear(NodeInfo *i) {
    Py_CLEAR(i->node);
    Py_CLEAR(i->src);
}

static void frame_clear(Frame *f) {
    info_clear(&f->self);
    if (f->has_pending) info_clear(&f->pending);
    f->has_pending = 0;
    Py_CLEAR(f->keys);
    for (Py_ssize_t i = 0; i < f->n; i++) {
        info_clear(&f->kids[i].key);
        info_clear(&f->kids[i].val);
        Py_CLEAR(f->kids[i].child);
    }
    PyMem_Free(f->kids);
    f->kids = NULL;
    f->n = f->cap = 0;
}

/* ------------------------------------------------------------------ text helpers */


static Py_ssize_t find_char(const Text *t, Py_ssize_t size, Py_UCS4 c, Py_ssize_t lo, Py_ssize_t hi) {
    if (hi > size) hi = size;
    if (lo < 0 || lo >= hi) return -1;
    if (t->kind == PyUnicode_1BYTE_KIND) {
        const char *d = (const char *)t->data;
        const char *p = memchr(d + lo, (int)c, (size_t)(hi - lo));
        return p ? (Py_ssize_t)(p - d) : -1;
    }
    for (Py_ssize_t i = lo; i < hi; i++)
        if (CH(t, i) == c) return i;
    return -1;
}

static int py_space(Py_UCS4 c) { return Py_UNICODE_ISSPACE(c); } /* str.strip()'s whitespace */

static int ensure_newlines(PyObject *text, const Text *t, Py_ssize_t size) {
    if (nl_text == text) return 0;
    Py_CLEAR(nl_text);
    PyMem_Free(nl);
    nl = NULL;
    nl_count = 0;
    nl_hint = 0;
    Py_ssize_t cap = 64;
    nl = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)cap);
    if (!nl) return -1;
    Py_ssize_t at = 0;
    while ((at = find_char(t, size, '\n', at, size)) >= 0) {
        if (nl_count == cap) {
            cap *= 2;
            Py_ssize_t *bigger = PyMem_Realloc(nl, sizeof(Py_ssize_t) * (size_t)cap);
            if (!bigger) return -1;
            nl = bigger;
        }
        nl[nl_count++] = at++;
    }
    Py_INCREF(text);
    nl_text = text;
    return 0;
}

/* bisect_left(newlines, index). The builder asks about positions in the order it reads them,
 * mostly on the line of the last answer or the next: those two are tried before bisecting. */
static Py_ssize_t newlines_before(Py_ssize_t index) {
    Py_ssize_t h = nl_hint; /* the answer is h when nl[h - 1] < index <= nl[h] */
    if ((h == 0 || nl[h - 1] < index) && (h == nl_count || nl[h] >= index)) return h;
    if (h < nl_count && nl[h] < index && (h + 1 == nl_count || nl[h + 1] >= index)) return nl_hint = h + 1;
    Py_ssize_t lo = 0, hi = nl_count;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (nl[mid] < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return nl_hint = lo;
}

static long line_of(Py_ssize_t index) { return (long)newlines_before(index) + 1; }

/* text.rfind("\n", 0, hi), from the newline table of the text being built (``ensure_newlines``):
 * a scan back to the line's start made every node of a long line cost its column, and a
 * one-line JSON document of n keys cost n times its length. */
static Py_ssize_t rfind_nl(const Text *t, Py_ssize_t hi) {
    if (hi > t->size) hi = t->size;
    Py_ssize_t before = newlines_before(hi);
    return before ? nl[before - 1] : -1;
}

static Py_ssize_t column_of(const Text *t, Py_ssize_t index) { return index - (rfind_nl(t, index) + 1); }

/* ------------------------------------------------------------------ objects */

static PyObject *new_of(PyTypeObject *type) { return type->tp_new(type, empty_tuple, NULL); }

/* The slot an attribute of one of the tree's classes is stored in, remembered per (type, name).
 * The tree's classes have __slots__: a slot is stored straight into the object, where
 * PyObject_SetAttr would look the name up twice more (generic setattr, then the slot's
 * descriptor). Looking the descriptor up once per attribute set (_PyType_Lookup) was still a
 * tenth of building a tree, so the answer is kept, with the type's version tag: a type changed
 * since (or another type at the same address) has another tag and is looked up again.
 * -1: not a plain writable slot, so the generic way is taken. */
typedef struct {
    PyTypeObject *type;
    PyObject *name;
    unsigned int version;
    Py_ssize_t offset;
} SlotMemo;

#define SLOT_MEMOS 1024
static SlotMemo slot_memos[SLOT_MEMOS];

static Py_ssize_t slot_offset(PyTypeObject *type, PyObject *name) {
    SlotMemo *m = &slot_memos[(((uintptr_t)type >> 4) ^ ((uintptr_t)name >> 4)) & (SLOT_MEMOS - 1)];
    if (m->type == type && m->name == name && m->version == type->tp_version_tag &&
        PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG))
        return m->offset;
    Py_ssize_t offset = -1;
    if (type->tp_setattro == PyObject_GenericSetAttr) {
        PyObject *descr = _PyType_Lookup(type, name); /* borrowed; gives the type a version tag */
        if (descr && Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
            PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
            if (member->type == T_OBJECT_EX && !(member->flags & READONLY)) offset = member->offset;
        }
    }
    m->type = type;
    m->name = name;
    m->version = type->tp_version_tag;
    m->offset = offset;
    return offset;
}

/* o.name = value: into its slot when it has one (above), else the generic way. */
static int set_obj(PyObject *o, PyObject *name, PyObject *value) {
    Py_ssize_t offset = slot_offset(Py_TYPE(o), name);
    if (offset < 0) return PyObject_SetAttr(o, name, value);
    PyObject **slot = (PyObject **)((char *)o + offset);
    PyObject *old = *slot;
    *slot = Py_NewRef(value);
    Py_XDECREF(old);
    return 0;
}

static int set_int(PyObject *o, PyObject *name, Py_ssize_t v) {
    PyObject *n = PyLong_FromSsize_t(v);
    if (!n) return -1;
    int r = set_obj(o, name, n);
    Py_DECREF(n);
    return r;
}

static int set_new_list(PyObject *o, PyObject *name) {
    PyObject *l = PyList_New(0);
    if (!l) return -1;
    int r = set_obj(o, name, l);
    Py_DECREF(l);
    return r;
}

static PyObject *make_source(Py_ssize_t start, Py_ssize_t end, Py_ssize_t col) {
    PyObject *o = new_of(SourceT);
    if (!o) return NULL;
    if (set_int(o, S_start, start) || set_int(o, S_end, end) || set_int(o, S_col, col) || set_int(o, S_open_end, -1) ||
        set_int(o, S_close_start, -1) || set_obj(o, S_sep, empty_str)) {
        Py_DECREF(o);
        return NULL;
    }
    return o;
}

static PyObject *make_entry_source(PyObject *parent, Py_ssize_t index, Py_ssize_t head_start, Py_ssize_t line_start,
                                   Py_ssize_t key_start, Py_ssize_t key_end, Py_ssize_t value_start,
                                   Py_ssize_t value_end, Py_ssize_t end) {
    PyObject *o = new_of(EntrySourceT);
    if (!o) return NULL;
    PyObject *pid = PyLong_FromVoidPtr(parent); /* id(node) */
    if (!pid) {
        Py_DECREF(o);
        return NULL;
    }
    int bad = set_obj(o, S_parent_id, pid);
    Py_DECREF(pid);
    if (bad || set_int(o, S_index, index) || set_int(o, S_head_start, head_start) ||
        set_int(o, S_line_start, line_start) || set_int(o, S_key_start, key_start) || set_int(o, S_key_end, key_end) ||
        set_int(o, S_value_start, value_start) || set_int(o, S_value_end, value_end) || set_int(o, S_end, end)) {
        Py_DECREF(o);
        return NULL;
    }
    return o;
}

static PyObject *str_of(const char *s) { return s ? PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "strict") : NULL; }

/* tag if tag not in (None, "!") else None, as a new reference (Py_None included) */
static PyObject *tag_of(const yaml_char_t *tag) {
    if (!tag || (tag[0] == '!' && tag[1] == 0)) Py_RETURN_NONE;
    return str_of((const char *)tag);
}

static PyObject *anchor_of(const yaml_char_t *anchor) {
    if (!anchor) Py_RETURN_NONE;
    return str_of((const char *)anchor);
}

/* Node.__init__'s attributes, then the builder's: src, anchor, tag, dirty, line. */
static int set_node_head(PyObject *o, PyObject *src, PyObject *anchor, PyObject *tag, long line) {
    if (set_obj(o, S_src, src) || set_obj(o, S_anchor, anchor) || set_obj(o, S_tag, tag) ||
        set_obj(o, S_dirty, Py_False))
        return -1;
    return set_int(o, S_line, line);
}

/* ------------------------------------------------------------------ attaching */

static int push_child(Frame *f, NodeInfo *key, NodeInfo *val, PyObject *child) {
    if (f->n == f->cap) {
        Py_ssize_t cap = f->cap ? f->cap * 2 : 8;
        Child *bigger = PyMem_Realloc(f->kids, sizeof(Child) * (size_t)cap);
        if (!bigger) {
            PyErr_NoMemory();
            return -1;
        }
        f->kids = bigger;
        f->cap = cap;
    }
    Child *c = &f->kids[f->n++];
    memset(c, 0, sizeof(Child));
    if (key) c->key = *key; /* steals */
    c->val = *val;          /* steals */
    c->child = child;       /* steals */
    return 0;
}

/* _attach: the node becomes the root, an item, a pending key, or a key's value; steals info. */
static int attach(Builder *b, NodeInfo *info) {
    if (b->depth == 0) {
        b->root = *info;
        b->has_root = 1;
        return 0;
    }
    Frame *top = &b->stack[b->depth - 1];
    if (!top->is_map) {
        PyObject *item = new_of(ItemT);
        if (!item) goto fail;
        if (set_obj(item, S_value, info->node) || set_obj(item, S_src, Py_None) || set_new_list(item, S_head_comments) ||
            set_obj(item, S_eol_comment, Py_None) || PyList_Append(top->list, item)) {
            Py_DECREF(item);
            goto fail;
        }
        return push_child(top, NULL, info, item);
    }
    if (!top->has_pending) { /* a key */
        if (info->type != T_SCALAR || info->start < 0) {
            b->bail = 1; /* complex or empty keys: pybuild.py reports them */
            goto fail_quiet;
        }
        PyObject *value = PyObject_GetAttr(info->node, S_value);
        if (!value) goto fail;
        PyObject *style = PyObject_GetAttr(info->node, S_style);
        if (!style) {
            Py_DECREF(value);
            goto fail;
        }
        if (style == Py_None && PyUnicode_CompareWithASCIIString(value, "<<") == 0) b->shares = 1;
        Py_DECREF(style);
        int seen = PySet_Contains(top->keys, value);
        if (seen == 0) seen = PySet_Add(top->keys, value) < 0 ? -1 : 0;
        Py_DECREF(value);
        if (seen < 0) goto fail;
        if (seen) {
            b->bail = 1; /* a duplicate key: pybuild.py reports it */
            goto fail_quiet;
        }
        top->pending = *info;
        top->has_pending = 1;
        return 0;
    }
    NodeInfo *key = &top->pending;
    if (info->start < 0) { /* an empty value: placed after its key's colon */
        Py_ssize_t i = key->end;
        while (i < b->size && (CH(b->t, i) == ' ' || CH(b->t, i) == '\t')) i++;
        if (i < b->size && CH(b->t, i) == ':') {
            if (set_int(info->src, S_start, i + 1) || set_int(info->src, S_end, i + 1) ||
                set_int(info->node, S_line, key->line))
                goto fail;
            info->start = info->end = i + 1;
            info->line = key->line;
        } else if (!top->self.flow) {
            b->bail = 1; /* a mapping key without ':' */
            goto fail_quiet;
        }
    }
    PyObject *entry = new_of(EntryT);
    if (!entry) goto fail;
    if (set_obj(entry, S_key, key->node) || set_obj(entry, S_value, info->node) || set_obj(entry, S_src, Py_None) ||
        set_new_list(entry, S_head_comments) || set_obj(entry, S_eol_comment, Py_None) ||
        set_obj(entry, S_renamed, Py_False) || set_obj(entry, S_carried, Py_False) || PyList_Append(top->list, entry)) {
        Py_DECREF(entry);
        goto fail;
    }
    NodeInfo k = *key;
    top->has_pending = 0;
    memset(&top->pending, 0, sizeof(NodeInfo));
    return push_child(top, &k, info, entry);
fail_quiet:
fail:
    info_clear(info);
    return -1;
}

/* ------------------------------------------------------------------ finishing collections */

static Py_ssize_t content_end(Builder *b, NodeInfo *v) {
    if ((v->type == T_MAP || v->type == T_SEQ) && !v->flow) return v->cend;
    if (v->type == T_SCALAR && v->block_scalar) {
        Py_ssize_t e = v->end;
        while (e > v->start && py_space(CH(b->t, e - 1))) e--;
        return e;
    }
    return v->end;
}

static int is_inline(NodeInfo *v) { return v->type == T_SCALAR || v->type == T_ALIAS || v->flow; }

static int call_set(PyObject *o, PyObject *name, PyObject *fn, Builder *b, Py_ssize_t lo, Py_ssize_t hi) {
    PyObject *chunk = PyUnicode_Substring(b->t->obj, lo, hi);
    if (!chunk) return -1;
    PyObject *r = PyObject_CallOneArg(fn, chunk);
    Py_DECREF(chunk);
    if (!r) return -1;
    int bad = set_obj(o, name, r);
    Py_DECREF(r);
    return bad;
}

/* _lead_comments: the comment lines right above a nested mapping's first key. */
static PyObject *lead_comments(Builder *b, Py_ssize_t key_start) {
    const Text *t = b->t;
    PyObject *found = PyList_New(0);
    if (!found) return NULL;
    Py_ssize_t line_start = rfind_nl(t, key_start) + 1;
    for (Py_ssize_t i = line_start; i < key_start; i++)
        if (CH(t, i) != ' ' && CH(t, i) != '\t') return found;
    Py_ssize_t end = line_start;
    while (end > 0) {
        Py_ssize_t begin = rfind_nl(t, end - 1) + 1;
        Py_ssize_t lo = begin, hi = end;
        while (lo < hi && py_space(CH(t, lo))) lo++;
        while (hi > lo && py_space(CH(t, hi - 1))) hi--;
        if (lo < hi && CH(t, lo) != '#') break;
        if (lo < hi) {
            PyObject *line = PyUnicode_Substring(t->obj, lo, hi);
            if (!line || PyList_Append(found, line)) {
                Py_XDECREF(line);
                Py_DECREF(found);
                return NULL;
            }
            Py_DECREF(line);
        }
        end = begin;
    }
    if (PyList_Reverse(found)) {
        Py_DECREF(found);
        return NULL;
    }
    return found;
}

static int finish_flow(Builder *b, Frame *f) {
    Py_ssize_t n = f->n;
    for (Py_ssize_t i = 0; i < n; i++) {
        Child *c = &f->kids[i];
        if (f->is_map && c->val.start < 0) {
            if (set_int(c->val.src, S_start, c->key.end) || set_int(c->val.src, S_end, c->key.end)) return -1;
            c->val.start = c->val.end = c->key.end;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Child *c = &f->kids[i];
        Py_ssize_t ks = f->is_map ? c->key.start : c->val.start, ke = f->is_map ? c->key.end : c->val.start;
        Py_ssize_t vs = c->val.start, ve = c->val.end;
        Py_ssize_t nxt = i + 1 < n ? (f->is_map ? f->kids[i + 1].key.start : f->kids[i + 1].val.start) : ve;
        PyObject *es = make_entry_source(f->self.node, i, -1, -1, ks, ke, vs, ve, nxt);
        if (!es) return -1;
        int bad = set_obj(c->child, S_src, es);
        Py_DECREF(es);
        if (bad) return -1;
    }
    if (n) {
        Py_ssize_t first = f->is_map ? f->kids[0].key.start : f->kids[0].val.start;
        Py_ssize_t close = f->kids[n - 1].val.end;
        if (set_int(f->self.src, S_open_end, first) || set_int(f->self.src, S_close_start, close)) return -1;
        if (n > 1) {
            Py_ssize_t second = f->is_map ? f->kids[1].key.start : f->kids[1].val.start;
            Py_ssize_t a = f->kids[0].val.end;
            PyObject *sep = PyUnicode_Substring(b->t->obj, a, second > a ? second : a);
            if (!sep) return -1;
            int bad = set_obj(f->self.src, S_sep, sep);
            Py_DECREF(sep);
            if (bad) return -1;
        }
    }
    return 0;
}

/* What _finish_mapping and _finish_sequence set on each entry or item: its EntrySource, then
 * its head comments and end-of-line comment (``key_end``: the key's end, or after the dash). */
static int place_child(Builder *b, Frame *f, Py_ssize_t i, Child *c, Py_ssize_t head_start, Py_ssize_t line_start,
                       Py_ssize_t key_start, Py_ssize_t key_end, Py_ssize_t end, int inl) {
    PyObject *es =
        make_entry_source(f->self.node, i, head_start, line_start, key_start, key_end, c->val.start, c->val.end, end);
    if (!es) return -1;
    int bad = set_obj(c->child, S_src, es);
    Py_DECREF(es);
    if (bad) return -1;
    if (find_char(b->t, b->size, '#', head_start, line_start) >= 0 &&
        call_set(c->child, S_head_comments, comment_lines_fn, b, head_start, line_start))
        return -1;
    Py_ssize_t a = inl ? c->val.end : key_end, z = inl ? end : c->val.start;
    if (find_char(b->t, b->size, '#', a, z) >= 0 && call_set(c->child, S_eol_comment, eol_comment_fn, b, a, z))
        return -1;
    return 0;
}

static Py_ssize_t line_end_after(Builder *b, Py_ssize_t pos) { /* entry_end: just after the newline ending pos's line */
    Py_ssize_t nlp = find_char(b->t, b->size, '\n', pos, b->size);
    return nlp < 0 ? b->size : nlp + 1;
}

/* _explicit_indicator: where a key's entry starts, at its ``?`` when it is an explicit key on that line */
static Py_ssize_t explicit_indicator(Builder *b, Py_ssize_t key_start) {
    const Text *t = b->t;
    Py_ssize_t line_start = rfind_nl(t, key_start) + 1;
    Py_ssize_t q = -1;
    for (Py_ssize_t i = key_start - 1; i >= line_start; i--)
        if (CH(t, i) == '?') {
            q = i;
            break;
        }
    if (q < 0) return key_start;
    for (Py_ssize_t i = q + 1; i < key_start; i++)
        if (!py_space(CH(t, i))) return key_start;
    Py_UCS4 before = q > line_start ? CH(t, q - 1) : 0;
    return q == line_start || before == ' ' || before == '\t' || before == '-' ? q : key_start;
}

static int finish_mapping(Builder *b, Frame *f, int nested) {
    const Text *t = b->t;
    Py_ssize_t n = f->n;
    if (!n) return 0;
    Child *first = &f->kids[0];
    if (set_obj(f->self.node, S_first, first->child)) return -1;
    if (nested) {
        PyObject *lead = lead_comments(b, first->key.start);
        if (!lead) return -1;
        int bad = set_obj(first->child, S_head_comments, lead);
        Py_DECREF(lead);
        if (bad) return -1;
    }
    Py_ssize_t start = explicit_indicator(b, first->key.start);
    f->self.start = start;
    if (set_int(f->self.src, S_start, start) || set_int(f->self.src, S_col, column_of(t, start)) ||
        set_int(f->self.node, S_line, first->key.line))
        return -1;
    f->self.line = first->key.line;
    Py_ssize_t prev_end = start;
    for (Py_ssize_t i = 0; i < n; i++) {
        Child *c = &f->kids[i];
        Py_ssize_t head_start, line_start;
        if (i) {
            head_start = prev_end;
            line_start = rfind_nl(t, c->key.start) + 1;
        } else {
            head_start = line_start = start;
        }
        Py_ssize_t content;
        int inl;
        if (c->val.type == T_SCALAR && !c->val.block_scalar) {
            content = c->val.end;
            inl = 1;
        } else {
            content = content_end(b, &c->val);
            inl = is_inline(&c->val);
        }
        Py_ssize_t end = line_end_after(b, content);
        if (place_child(b, f, i, c, head_start, line_start, c->key.start, c->key.end, end, inl)) return -1;
        prev_end = end;
    }
    f->self.end = prev_end;
    f->self.cend = content_end(b, &f->kids[n - 1].val);
    return set_int(f->self.src, S_end, prev_end);
}

static int finish_sequence(Builder *b, Frame *f) {
    const Text *t = b->t;
    Py_ssize_t n = f->n;
    if (!n) return 0;
    Py_ssize_t prev_end = f->self.start, first_dash = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        Child *c = &f->kids[i];
        Py_ssize_t from = i ? prev_end : f->self.start, dash = -1;
        for (Py_ssize_t j = from; j < b->size; j++) { /* _find_dash */
            Py_UCS4 ch = CH(t, j);
            if (ch == '-') {
                dash = j;
                break;
            }
            if (ch == '#') {
                Py_ssize_t e = find_char(t, b->size, '\n', j, b->size);
                if (e < 0) break;
                j = e;
            }
        }
        if (dash < 0) {
            b->bail = 1; /* pybuild.py raises: a sequence item without a dash */
            return -1;
        }
        if (!i) first_dash = dash;
        Py_ssize_t line_start = i ? rfind_nl(t, dash) + 1 : dash;
        if (c->val.start < 0) {
            if (set_int(c->val.src, S_start, dash + 1) || set_int(c->val.src, S_end, dash + 1)) return -1;
            c->val.start = c->val.end = dash + 1;
        }
        Py_ssize_t end = line_end_after(b, content_end(b, &c->val));
        Py_ssize_t head_start = i ? prev_end : dash;
        if (place_child(b, f, i, c, head_start, line_start, dash, dash + 1, end, is_inline(&c->val))) return -1;
        prev_end = end;
    }
    f->self.start = first_dash;
    f->self.line = line_of(first_dash);
    f->self.end = prev_end;
    f->self.cend = content_end(b, &f->kids[n - 1].val);
    if (set_int(f->self.src, S_start, first_dash) || set_int(f->self.src, S_col, column_of(t, first_dash)) ||
        set_int(f->self.node, S_line, f->self.line))
        return -1;
    return set_int(f->self.src, S_end, prev_end);
}

/* ------------------------------------------------------------------ events */

static int on_scalar(Builder *b, yaml_event_t *ev) {
    if (b->depth > MAX_DEPTH) {
        b->bail = 1;
        return -1;
    }
    Py_ssize_t start = (Py_ssize_t)ev->start_mark.index + b->offset, end = (Py_ssize_t)ev->end_mark.index + b->offset;
    PyObject *value = PyUnicode_DecodeUTF8((const char *)ev->data.scalar.value, (Py_ssize_t)ev->data.scalar.length,
                                           "strict");
    if (!value) return -1;
    PyObject *style;
    int block = 0;
    switch (ev->data.scalar.style) {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = STYLE_SQ; break;
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = STYLE_DQ; break;
        case YAML_LITERAL_SCALAR_STYLE: style = STYLE_LIT; block = 1; break;
        case YAML_FOLDED_SCALAR_STYLE: style = STYLE_FOLD; block = 1; break;
        default: style = Py_None;
    }
    long line;
    Py_ssize_t col;
    if (start == end && style == Py_None && ev->data.scalar.length == 0) {
        start = end = -1;
        line = 0;
        col = 0;
    } else {
        line = line_of(start);
        col = start - rfind_nl(b->t, start) - 1;
    }
    PyObject *tag = tag_of(ev->data.scalar.tag), *anchor = anchor_of(ev->data.scalar.anchor);
    PyObject *src = make_source(start, end, col);
    PyObject *node = new_of(ScalarT);
    int bad = !tag || !anchor || !src || !node;
    /* Scalar.parsed: src, anchor, tag, dirty, line, value, style, new_data, has_new_data */
    bad = bad || set_node_head(node, src, anchor, tag, line) || set_obj(node, S_value, value) ||
          set_obj(node, S_style, style) || set_obj(node, S_new_data, Py_None) || set_obj(node, S_has_new_data, Py_False);
    if (!bad && anchor != Py_None) bad = PyDict_SetItem(b->anchors, anchor, node) < 0;
    Py_XDECREF(tag);
    Py_XDECREF(anchor);
    Py_DECREF(value);
    if (bad) {
        Py_XDECREF(src);
        Py_XDECREF(node);
        return -1;
    }
    NodeInfo info = {node, src, T_SCALAR, 0, block, start, end, 0, line};
    return attach(b, &info);
}

static int on_alias(Builder *b, yaml_event_t *ev) {
    Py_ssize_t start = (Py_ssize_t)ev->start_mark.index + b->offset, end = (Py_ssize_t)ev->end_mark.index + b->offset;
    if (b->depth > MAX_DEPTH) {
        b->bail = 1;
        return -1;
    }
    PyObject *name = str_of((const char *)ev->data.alias.anchor);
    if (!name) return -1;
    PyObject *target = PyDict_GetItemWithError(b->anchors, name);
    if (!target && PyErr_Occurred()) {
        Py_DECREF(name);
        return -1;
    }
    b->shares = 1;
    long line = line_of(start);
    PyObject *src = make_source(start, end, column_of(b->t, start));
    PyObject *node = new_of(AliasT);
    /* Alias(name, target): Node.__init__, then name and target; the builder then sets anchor, src, line, dirty */
    int bad = !src || !node || set_obj(node, S_src, Py_None) || set_obj(node, S_anchor, Py_None) ||
              set_obj(node, S_tag, Py_None) || set_obj(node, S_dirty, Py_True) || set_int(node, S_line, 0) ||
              set_obj(node, S_name, name) || set_obj(node, S_target, target ? target : Py_None) ||
              set_obj(node, S_src, src) || set_int(node, S_line, line) || set_obj(node, S_dirty, Py_False);
    Py_DECREF(name);
    if (bad) {
        Py_XDECREF(src);
        Py_XDECREF(node);
        return -1;
    }
    NodeInfo info = {node, src, T_ALIAS, 0, 0, start, end, 0, line};
    return attach(b, &info);
}

static int on_start(Builder *b, yaml_event_t *ev, int is_map) {
    Py_ssize_t start = (Py_ssize_t)ev->start_mark.index + b->offset;
    if (b->depth > MAX_DEPTH) {
        b->bail = 1;
        return -1;
    }
    int flow;
    const yaml_char_t *anchor_s, *tag_s;
    if (is_map) {
        flow = ev->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
        anchor_s = ev->data.mapping_start.anchor;
        tag_s = ev->data.mapping_start.tag;
    } else {
        flow = ev->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
        anchor_s = ev->data.sequence_start.anchor;
        tag_s = ev->data.sequence_start.tag;
    }
    PyObject *node = new_of(is_map ? MappingT : SequenceT);
    PyObject *src = make_source(start, start, 0);
    PyObject *list = PyList_New(0);
    PyObject *anchor = anchor_of(anchor_s), *tag = tag_of(tag_s);
    /* Mapping(flow): src, anchor, tag, dirty, line, entries, flow, first; Sequence(flow): ..., items, flow */
    int bad = !node || !src || !list || !anchor || !tag || set_node_head(node, Py_None, Py_None, Py_None, 0) ||
              set_obj(node, S_dirty, Py_True) || set_obj(node, is_map ? S_entries : S_items, list) ||
              set_obj(node, S_flow, flow ? Py_True : Py_False) || (is_map && set_obj(node, S_first, Py_None)) ||
              set_obj(node, S_src, src) || set_obj(node, S_anchor, anchor) || set_obj(node, S_tag, tag) ||
              set_obj(node, S_dirty, Py_False);
    if (!bad && anchor != Py_None) bad = PyDict_SetItem(b->anchors, anchor, node) < 0;
    Py_XDECREF(anchor);
    Py_XDECREF(tag);
    Py_XDECREF(list); /* the node holds it */
    if (bad) {
        Py_XDECREF(node);
        Py_XDECREF(src);
        return -1;
    }
    Frame *f = &b->stack[b->depth];
    memset(f, 0, sizeof(Frame));
    f->self = (NodeInfo){node, src, is_map ? T_MAP : T_SEQ, flow, 0, start, start, 0, 0};
    f->is_map = is_map;
    f->list = list;
    if (is_map && !(f->keys = PySet_New(NULL))) {
        b->depth++;
        return -1;
    }
    b->depth++;
    return 0;
}

static int on_end(Builder *b, yaml_event_t *ev) {
    Frame *f = &b->stack[b->depth - 1];
    int nested = b->depth > 1, r;
    if (f->self.flow) {
        Py_ssize_t end = (Py_ssize_t)ev->end_mark.index + b->offset;
        f->self.end = end;
        f->self.line = line_of(f->self.start);
        r = set_int(f->self.src, S_end, end) || set_int(f->self.src, S_col, column_of(b->t, f->self.start)) ||
            set_int(f->self.node, S_line, f->self.line) || finish_flow(b, f);
    } else {
        r = f->is_map ? finish_mapping(b, f, nested) : finish_sequence(b, f);
    }
    NodeInfo done = f->self;
    memset(&f->self, 0, sizeof(NodeInfo));
    frame_clear(f);
    b->depth--;
    if (r) {
        info_clear(&done);
        return -1;
    }
    return attach(b, &done);
}

static void builder_reset(Builder *b) {
    while (b->depth > 0) frame_clear(&b->stack[--b->depth]);
    if (b->has_root) info_clear(&b->root);
    b->has_root = 0;
    b->shares = 0;
    PyDict_Clear(b->anchors);
}

/* ------------------------------------------------------------------ libyaml, bound at run time */

/* The functions of ruamel.yaml.clib's libyaml (see the top of the file); NULL until ``bind``. */
typedef struct {
    int (*parser_initialize)(yaml_parser_t *);
    void (*parser_delete)(yaml_parser_t *);
    void (*set_input_string)(yaml_parser_t *, const unsigned char *, size_t);
    void (*set_encoding)(yaml_parser_t *, yaml_encoding_t);
    int (*parse)(yaml_parser_t *, yaml_event_t *);
    void (*event_delete)(yaml_event_t *);
    const char *(*version_string)(void);
} Libyaml;
static Libyaml Y;

/* The room for a parser (opaque here; libyaml's is about 480 bytes), and for an event with
 * room to spare: should a libyaml's be larger than libyaml_abi.h says, it writes into the
 * padding, never past it (and the probe in ``bind`` fails). */
typedef union {
    max_align_t align;
    char bytes[4096];
} Parser;
typedef union {
    yaml_event_t e;
    char pad[4 * sizeof(yaml_event_t)];
} Event;

/* A parser over UTF-8 input; 0 when libyaml cannot start one. ``utf8``: say the encoding,
 * as the builders do; without it libyaml detects it, as ruamel's CParser has it do. */
static int open_parser(Parser *parser, const char *input, Py_ssize_t size, int utf8) {
    memset(parser, 0, sizeof(*parser));
    if (!Y.parser_initialize((yaml_parser_t *)parser->bytes)) return 0;
    Y.set_input_string((yaml_parser_t *)parser->bytes, (const unsigned char *)input, (size_t)size);
    if (utf8) Y.set_encoding((yaml_parser_t *)parser->bytes, YAML_UTF8_ENCODING);
    return 1;
}

/* Whether libyaml reads the whole of ``input`` without an error (CParser.raw_parse, in C). */
static int parses(const char *input, Py_ssize_t size) {
    Parser parser;
    Event ev;
    if (!open_parser(&parser, input, size, 0)) return 0;
    int ok = 1;
    for (;;) {
        if (!Y.parse((yaml_parser_t *)parser.bytes, &ev.e)) {
            ok = 0;
            break;
        }
        yaml_event_type_t type = ev.e.type;
        Y.event_delete(&ev.e);
        if (type == YAML_STREAM_END_EVENT || type == YAML_NO_EVENT) break;
    }
    Y.parser_delete((yaml_parser_t *)parser.bytes);
    return ok;
}

/* The probe: every kind of event, with marks, values, anchors, tags and styles to check. */
static const char PROBE[] = "a: &x [1, 'b']\n--- !t\n? c\n: *x\n...\n";

static int probe_ok(void) {
    static const struct {
        yaml_event_type_t type;
        size_t index, line, column;
        const char *value, *anchor, *tag;
        int style;
    } want[] = {
        {YAML_STREAM_START_EVENT, 0, 0, 0, NULL, NULL, NULL, 0},
        {YAML_DOCUMENT_START_EVENT, 0, 0, 0, NULL, NULL, NULL, 0},
        {YAML_MAPPING_START_EVENT, 0, 0, 0, NULL, NULL, NULL, YAML_BLOCK_MAPPING_STYLE},
        {YAML_SCALAR_EVENT, 0, 0, 0, "a", NULL, NULL, YAML_PLAIN_SCALAR_STYLE},
        {YAML_SEQUENCE_START_EVENT, 3, 0, 3, NULL, "x", NULL, YAML_FLOW_SEQUENCE_STYLE},
        {YAML_SCALAR_EVENT, 7, 0, 7, "1", NULL, NULL, YAML_PLAIN_SCALAR_STYLE},
        {YAML_SCALAR_EVENT, 10, 0, 10, "b", NULL, NULL, YAML_SINGLE_QUOTED_SCALAR_STYLE},
        {YAML_SEQUENCE_END_EVENT, 13, 0, 13, NULL, NULL, NULL, 0},
        {YAML_MAPPING_END_EVENT, 15, 1, 0, NULL, NULL, NULL, 0},
        {YAML_DOCUMENT_END_EVENT, 15, 1, 0, NULL, NULL, NULL, 0},
        {YAML_DOCUMENT_START_EVENT, 15, 1, 0, NULL, NULL, NULL, 0},
        {YAML_MAPPING_START_EVENT, 19, 1, 4, NULL, NULL, "!t", YAML_BLOCK_MAPPING_STYLE},
        {YAML_SCALAR_EVENT, 24, 2, 2, "c", NULL, NULL, YAML_PLAIN_SCALAR_STYLE},
        {YAML_ALIAS_EVENT, 28, 3, 2, NULL, "x", NULL, 0},
        {YAML_MAPPING_END_EVENT, 31, 4, 0, NULL, NULL, NULL, 0},
        {YAML_DOCUMENT_END_EVENT, 31, 4, 0, NULL, NULL, NULL, 0},
        {YAML_STREAM_END_EVENT, 35, 5, 0, NULL, NULL, NULL, 0},
    };
    Parser parser;
    Event ev;
    if (!open_parser(&parser, PROBE, (Py_ssize_t)(sizeof(PROBE) - 1), 1)) return 0;
    int ok = 1;
    size_t n = sizeof(want) / sizeof(want[0]);
    for (size_t i = 0; ok && i < n; i++) {
        if (!Y.parse((yaml_parser_t *)parser.bytes, &ev.e)) {
            ok = 0;
            break;
        }
        const yaml_event_t *e = &ev.e;
        ok = e->type == want[i].type && e->start_mark.index == want[i].index &&
             e->start_mark.line == want[i].line && e->start_mark.column == want[i].column;
        const char *value = NULL, *anchor = NULL, *tag = NULL;
        int style = 0;
        size_t length = 0;
        switch (e->type) {
            case YAML_SCALAR_EVENT:
                value = (const char *)e->data.scalar.value;
                length = e->data.scalar.length;
                anchor = (const char *)e->data.scalar.anchor;
                tag = (const char *)e->data.scalar.tag;
                style = (int)e->data.scalar.style;
                break;
            case YAML_ALIAS_EVENT: anchor = (const char *)e->data.alias.anchor; break;
            case YAML_SEQUENCE_START_EVENT:
                anchor = (const char *)e->data.sequence_start.anchor;
                tag = (const char *)e->data.sequence_start.tag;
                style = (int)e->data.sequence_start.style;
                break;
            case YAML_MAPPING_START_EVENT:
                anchor = (const char *)e->data.mapping_start.anchor;
                tag = (const char *)e->data.mapping_start.tag;
                style = (int)e->data.mapping_start.style;
                break;
            default: break;
        }
#define SAME(got, wanted) ((wanted) == NULL ? (got) == NULL : (got) != NULL && strcmp((got), (wanted)) == 0)
        if (ok && want[i].value) ok = value && length == strlen(want[i].value) && SAME(value, want[i].value);
        if (ok) ok = SAME(anchor, want[i].anchor) && SAME(tag, want[i].tag) && style == want[i].style;
#undef SAME
        Y.event_delete(&ev.e);
    }
    Y.parser_delete((yaml_parser_t *)parser.bytes);
    return ok;
}

/* bind(path) -> the version of the libyaml in the shared object at ``path``, now used; or
 * None (not there, not a libyaml, or not laid out as yaml.h says): the module stays unused. */
static PyObject *bind(PyObject *self, PyObject *args) {
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
#ifdef _WIN32
    Py_RETURN_NONE;
#else
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) Py_RETURN_NONE;
    Libyaml before = Y; /* kept when this library will not do */
    *(void **)&Y.parser_initialize = dlsym(lib, "yaml_parser_initialize");
    *(void **)&Y.parser_delete = dlsym(lib, "yaml_parser_delete");
    *(void **)&Y.set_input_string = dlsym(lib, "yaml_parser_set_input_string");
    *(void **)&Y.set_encoding = dlsym(lib, "yaml_parser_set_encoding");
    *(void **)&Y.parse = dlsym(lib, "yaml_parser_parse");
    *(void **)&Y.event_delete = dlsym(lib, "yaml_event_delete");
    *(void **)&Y.version_string = dlsym(lib, "yaml_get_version_string");
    if (!Y.parser_initialize || !Y.parser_delete || !Y.set_input_string || !Y.set_encoding || !Y.parse ||
        !Y.event_delete || !Y.version_string || !probe_ok()) {
        Y = before;
        dlclose(lib);
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(Y.version_string()); /* the library stays loaded for the process */
#endif
}

int k8sm_parses(const char *input, Py_ssize_t size) { return parses(input, size); }

int k8sm_unbound(void) {
    if (Y.parse) return 0;
    PyErr_SetString(PyExc_RuntimeError, "_fastbuild.bind found no libyaml");
    return 1;
}

/* accepts(text) -> whether libyaml reads the whole text without an error (False for text
 * that is not valid UTF-8, such as lone surrogates, as CParser fails to encode it). */
static PyObject *accepts(PyObject *self, PyObject *args) {
    PyObject *text;
    if (!PyArg_ParseTuple(args, "U", &text)) return NULL;
    if (k8sm_unbound()) return NULL;
    Py_ssize_t size;
    const char *input = PyUnicode_AsUTF8AndSize(text, &size);
    if (!input) {
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    if (parses(input, size)) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

/* accepts_each(texts, verdicts) -> None: ``accepts`` of each UTF-8 ``bytes`` of the list, with the
 * GIL released for the whole list, so that another thread runs Python meanwhile. The verdict of
 * texts[i] is stored at verdicts[i] as soon as it is known (1: accepted, 2: rejected); a
 * non-zero verdicts[len(texts)], set by another thread, stops the loop (the rest stay 0). */
static PyObject *accepts_each(PyObject *self, PyObject *args) {
    PyObject *list, *out;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &list, &PyByteArray_Type, &out)) return NULL;
    if (k8sm_unbound()) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (PyByteArray_GET_SIZE(out) < n + 1) {
        PyErr_SetString(PyExc_ValueError, "accepts_each: verdicts must hold len(texts) + 1 bytes");
        return NULL;
    }
    PyObject **texts = PyMem_Calloc((size_t)(n ? n : 1), sizeof(PyObject *));
    if (!texts) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        if (!PyBytes_Check(item)) {
            for (Py_ssize_t j = 0; j < i; j++) Py_DECREF(texts[j]);
            PyMem_Free(texts);
            PyErr_SetString(PyExc_TypeError, "accepts_each: texts must be bytes");
            return NULL;
        }
        Py_INCREF(item); /* held, not borrowed: the list may change while the GIL is released */
        texts[i] = item;
    }
    Py_buffer view; /* an exported buffer: the bytearray cannot be resized or freed meanwhile */
    if (PyObject_GetBuffer(out, &view, PyBUF_WRITABLE) < 0) {
        for (Py_ssize_t i = 0; i < n; i++) Py_DECREF(texts[i]);
        PyMem_Free(texts);
        return NULL;
    }
    unsigned char *verdicts = (unsigned char *)view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        if (__atomic_load_n(&verdicts[n], __ATOMIC_ACQUIRE)) break;
        int ok = parses(PyBytes_AS_STRING(texts[i]), PyBytes_GET_SIZE(texts[i]));
        __atomic_store_n(&verdicts[i], (unsigned char)(ok ? 1 : 2), __ATOMIC_RELEASE);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    for (Py_ssize_t i = 0; i < n; i++) Py_DECREF(texts[i]);
    PyMem_Free(texts);
    Py_RETURN_NONE;
}

/* build(text, offset, end) -> [(start, end, line, root, shares), ...] or None (left to pybuild.py) */
static PyObject *build(PyObject *self, PyObject *args) {
    PyObject *text;
    Py_ssize_t offset, stop;
    if (!PyArg_ParseTuple(args, "Unn", &text, &offset, &stop)) return NULL;
    if (k8sm_unbound()) return NULL;
    if (!ScalarT) {
        PyErr_SetString(PyExc_RuntimeError, "_fastbuild.configure was not called");
        return NULL;
    }
    Py_ssize_t size = PyUnicode_GET_LENGTH(text);
    if (offset < 0 || stop > size || offset > stop) Py_RETURN_NONE;
    Text tx = {text, PyUnicode_KIND(text), PyUnicode_DATA(text), size};
    const Text *t = &tx;
    if (ensure_newlines(text, t, size)) return PyErr_NoMemory();
    /* libyaml reads UTF-8 and counts characters: an ASCII text is its own UTF-8 */
    PyObject *piece = NULL;
    const char *input;
    Py_ssize_t input_size;
    if (PyUnicode_IS_ASCII(text)) {
        input = (const char *)PyUnicode_DATA(text) + offset;
        input_size = stop - offset;
    } else {
        piece = PyUnicode_Substring(text, offset, stop);
        if (!piece) return NULL;
        input = PyUnicode_AsUTF8AndSize(piece, &input_size);
        if (!input) {
            Py_DECREF(piece);
            PyErr_Clear();
            Py_RETURN_NONE; /* lone surrogates: left to pybuild.py */
        }
    }

    Builder b;
    memset(&b, 0, sizeof(b));
    b.t = t;
    b.size = size;
    b.offset = offset;
    b.stack = PyMem_Calloc(MAX_DEPTH + 2, sizeof(Frame));
    b.anchors = PyDict_New();
    PyObject *out = PyList_New(0);
    if (!b.stack || !b.anchors || !out) {
        Py_XDECREF(piece);
        PyMem_Free(b.stack);
        Py_XDECREF(b.anchors);
        Py_XDECREF(out);
        return PyErr_NoMemory();
    }
    Parser parser;
    Event event;
    yaml_event_t *evp = &event.e;
    int inited = open_parser(&parser, input, input_size, 1), failed = !inited, done = 0;
    Py_ssize_t doc_start = 0;
    b.bail = failed;
    while (!failed && !done) {
        if (!Y.parse((yaml_parser_t *)parser.bytes, evp)) {
            failed = 1;
            b.bail = 1; /* pybuild.py's parser reports it */
            break;
        }
        int r = 0;
        switch (evp->type) {
            case YAML_SCALAR_EVENT: r = on_scalar(&b, evp); break;
            case YAML_ALIAS_EVENT: r = on_alias(&b, evp); break;
            case YAML_MAPPING_START_EVENT: r = on_start(&b, evp, 1); break;
            case YAML_SEQUENCE_START_EVENT: r = on_start(&b, evp, 0); break;
            case YAML_MAPPING_END_EVENT:
            case YAML_SEQUENCE_END_EVENT: r = on_end(&b, evp); break;
            case YAML_DOCUMENT_START_EVENT:
                doc_start = (Py_ssize_t)evp->start_mark.index + offset;
                builder_reset(&b);
                break;
            case YAML_DOCUMENT_END_EVENT: {
                Py_ssize_t doc_end = (Py_ssize_t)evp->end_mark.index + offset;
                long line = line_of(doc_start);
                PyObject *root = Py_None;
                if (b.has_root) {
                    root = b.root.node;
                    if (b.root.src) line = line_of(b.root.start);
                }
                PyObject *row = Py_BuildValue("(nnlOO)", doc_start, doc_end, line, root, b.shares ? Py_True : Py_False);
                if (!row || PyList_Append(out, row)) r = -1;
                Py_XDECREF(row);
                builder_reset(&b);
                break;
            }
            case YAML_STREAM_END_EVENT: done = 1; break;
            default: break;
        }
        Y.event_delete(evp);
        if (r) failed = 1;
    }
    if (inited) Y.parser_delete((yaml_parser_t *)parser.bytes);
    Py_XDECREF(piece);
    builder_reset(&b);
    PyMem_Free(b.stack);
    Py_DECREF(b.anchors);
    if (failed) {
        Py_DECREF(out);
        if (b.bail && !PyErr_Occurred()) Py_RETURN_NONE;
        if (b.bail) { /* a Python error while bailing out: still left to pybuild.py, unless it is real */
            if (PyErr_ExceptionMatches(PyExc_MemoryError) || PyErr_ExceptionMatches(PyExc_KeyboardInterrupt))
                return NULL;
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        return NULL;
    }
    return out;
}


/* ------------------------------------------------------------------ plain data (readback.py) */

static PyObject *resolve_plain_fn, *resolve_map;
static PyObject *S_true, *S_false, *S_null;

/* 1 when resolve_plain(value) is value itself, known without calling it: not a word of its
 * table and not a number's first character (resolve_plain's own first two tests); 0 when it
 * must be asked; -1 on error. Most plain scalars are names, keys and words. */
static int plain_string(PyObject *value) {
    if (PyUnicode_GET_LENGTH(value) == 0) return 0;
    Py_UCS4 first = PyUnicode_READ_CHAR(value, 0);
    if (first == '.' || first == '+' || first == '-' || (first >= '0' && first <= '9')) return 0;
    int special = PyDict_Contains(resolve_map, value);
    return special < 0 ? -1 : !special;
}

/* The data of a plain scalar's text (``resolve_plain``); with an !!int tag, a text that reads
 * as no int stays a string. A new reference, or NULL with an exception. Both readers' rule:
 * the events' (``scalar_data``) and the tree's (``scalar_value``). */
static PyObject *plain_data(PyObject *value, int int_tag) {
    int as_is = plain_string(value); /* a string resolves to itself, and an !!int tag then keeps it too */
    if (as_is) return as_is < 0 ? NULL : Py_NewRef(value);
    PyObject *resolved = PyObject_CallOneArg(resolve_plain_fn, value);
    if (!resolved || !int_tag || PyLong_Check(resolved)) return resolved;
    Py_DECREF(resolved);
    return Py_NewRef(value);
}

/* readback._scalar_data */
static PyObject *scalar_data(yaml_event_t *ev) {
    PyObject *value = PyUnicode_DecodeUTF8((const char *)ev->data.scalar.value, (Py_ssize_t)ev->data.scalar.length,
                                           "strict");
    if (!value) return NULL;
    const char *tag = (const char *)ev->data.scalar.tag;
    if (tag && tag[0] == '!' && tag[1] == 0) tag = NULL;
    size_t tl = tag ? strlen(tag) : 0;
    if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || (tag && tl >= 4 && strcmp(tag + tl - 4, ":str") == 0))
        return value;
    PyObject *data = plain_data(value, tag && tl >= 4 && strcmp(tag + tl - 4, ":int") == 0);
    Py_DECREF(value);
    return data;
}

typedef struct {
    PyObject *container; /* owned */
    PyObject *key;       /* owned pending key, or NULL */
    int key_merge;       /* the pending key is a plain << */
    PyObject *merges;    /* owned list of merged mappings, or NULL */
} DataFrame;

/* read_data(text) -> [data of each document], or None (left to readback.py: errors, aliases to nothing) */
static PyObject *read_data(PyObject *self, PyObject *args) {
    PyObject *text;
    if (!PyArg_ParseTuple(args, "U", &text)) return NULL;
    if (k8sm_unbound()) return NULL;
    if (!resolve_plain_fn) {
        PyErr_SetString(PyExc_RuntimeError, "_fastbuild.configure was not called");
        return NULL;
    }
    Py_ssize_t size;
    const char *input = PyUnicode_AsUTF8AndSize(text, &size);
    if (!input) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *docs = PyList_New(0), *anchors = PyDict_New();
    DataFrame *stack = PyMem_Calloc(MAX_DEPTH + 2, sizeof(DataFrame));
    Py_ssize_t depth = 0;
    Parser parser;
    Event event;
    yaml_event_t *evp = &event.e;
    int inited = 0, failed = 0, bail = 0, done = 0;
    if (!docs || !anchors || !stack) {
        failed = 1;
        PyErr_NoMemory();
    } else if (!(inited = open_parser(&parser, input, size, 1))) {
        failed = bail = 1;
    }
    while (!failed && !done) {
        if (!Y.parse((yaml_parser_t *)parser.bytes, evp)) {
            failed = bail = 1;
            break;
        }
        PyObject *value = NULL; /* owned: what the event makes, to attach */
        const char *anchor = NULL;
        int is_key_merge = 0;
        switch (evp->type) {
            case YAML_SCALAR_EVENT:
                value = scalar_data(evp);
                if (!value) failed = 1;
                anchor = (const char *)evp->data.scalar.anchor;
                is_key_merge = evp->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && evp->data.scalar.length == 2 &&
                               memcmp(evp->data.scalar.value, "<<", 2) == 0;
                break;
            case YAML_MAPPING_START_EVENT:
            case YAML_SEQUENCE_START_EVENT: {
                int is_map = evp->type == YAML_MAPPING_START_EVENT;
                if (depth > MAX_DEPTH) {
                    failed = bail = 1;
                    break;
                }
                PyObject *c = is_map ? PyDict_New() : PyList_New(0);
                if (!c) {
                    failed = 1;
                    break;
                }
                const char *a = (const char *)(is_map ? evp->data.mapping_start.anchor : evp->data.sequence_start.anchor);
                if (a) {
                    PyObject *name = PyUnicode_FromString(a);
                    if (!name || PyDict_SetItem(anchors, name, c) < 0) failed = 1;
                    Py_XDECREF(name);
                }
                stack[depth].container = c;
                stack[depth].key = NULL;
                stack[depth].merges = NULL;
                depth++;
                break;
            }
            case YAML_MAPPING_END_EVENT:
            case YAML_SEQUENCE_END_EVENT: {
                DataFrame *f = &stack[--depth];
                value = f->container;
                f->container = NULL;
                Py_CLEAR(f->key);
                if (f->merges) { /* explicit keys win over merged ones, wherever they stand */
                    for (Py_ssize_t i = 0; !failed && i < PyList_GET_SIZE(f->merges); i++) {
                        PyObject *merged = PyList_GET_ITEM(f->merges, i), *k, *v;
                        Py_ssize_t pos = 0;
                        while (PyDict_Next(merged, &pos, &k, &v))
                            if (!PyDict_SetDefault(value, k, v)) {
                                failed = 1;
                                break;
                            }
                    }
                    Py_CLEAR(f->merges);
                }
                break;
            }
            case YAML_ALIAS_EVENT: {
                PyObject *name = PyUnicode_FromString((const char *)evp->data.alias.anchor);
                value = name ? PyDict_GetItemWithError(anchors, name) : NULL;
                Py_XDECREF(name);
                if (!value) {
                    failed = 1;
                    if (!PyErr_Occurred()) bail = 1; /* unknown alias: readback.py says which */
                } else {
                    Py_INCREF(value);
                }
                break;
            }
            case YAML_DOCUMENT_START_EVENT: PyDict_Clear(anchors); break;
            case YAML_STREAM_END_EVENT: done = 1; break;
            default: break;
        }
        if (!failed && value && anchor) {
            PyObject *name = PyUnicode_FromString(anchor);
            if (!name || PyDict_SetItem(anchors, name, value) < 0) failed = 1;
            Py_XDECREF(name);
        }
        if (!failed && value) { /* attach */
            if (depth == 0) {
                if (PyList_Append(docs, value)) failed = 1;
            } else {
                DataFrame *top = &stack[depth - 1];
                if (PyList_CheckExact(top->container)) {
                    if (PyList_Append(top->container, value)) failed = 1;
                } else if (!top->key) {
                    Py_INCREF(value);
                    top->key = value;
                    top->key_merge = is_key_merge;
                } else if (top->key_merge && PyUnicode_Check(top->key) &&
                           PyUnicode_CompareWithASCIIString(top->key, "<<") == 0) {
                    if (!top->merges && !(top->merges = PyList_New(0))) failed = 1;
                    if (PyDict_Check(value)) {
                        if (!failed && PyList_Append(top->merges, value)) failed = 1;
                    } else if (PyList_Check(value)) {
                        for (Py_ssize_t i = 0; !failed && i < PyList_GET_SIZE(value); i++)
                            if (PyDict_Check(PyList_GET_ITEM(value, i)) &&
                                PyList_Append(top->merges, PyList_GET_ITEM(value, i)))
                                failed = 1;
                    }
                    Py_CLEAR(top->key);
                } else {
                    PyObject *key = top->key, *name;
                    if (PyDict_Check(key) || PyList_Check(key)) {
                        failed = bail = 1; /* complex keys: readback.py raises */
                    } else {
                        if (PyBool_Check(key))
                            name = Py_NewRef(key == Py_True ? S_true : S_false);
                        else if (key == Py_None)
                            name = Py_NewRef(S_null);
                        else
                            name = PyObject_Str(key);
                        if (!name || PyDict_SetItem(top->container, name, value) < 0) failed = 1;
                        Py_XDECREF(name);
                        Py_CLEAR(top->key);
                    }
                }
            }
        }
        Py_XDECREF(value);
        Y.event_delete(evp);
    }
    if (inited) Y.parser_delete((yaml_parser_t *)parser.bytes);
    if (stack) {
        while (depth > 0) {
            DataFrame *f = &stack[--depth];
            Py_CLEAR(f->container);
            Py_CLEAR(f->key);
            Py_CLEAR(f->merges);
        }
        PyMem_Free(stack);
    }
    Py_XDECREF(anchors);
    if (failed) {
        Py_XDECREF(docs);
        if (bail && !PyErr_Occurred()) Py_RETURN_NONE;
        return NULL;
    }
    return docs;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *types[8], *cl, *eol, *resolve, *table;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOO!", &types[0], &types[1], &types[2], &types[3], &types[4], &types[5],
                          &types[6], &types[7], &cl, &eol, &resolve, &PyDict_Type, &table))
        return NULL;
    for (int i = 0; i < 8; i++)
        if (!PyType_Check(types[i])) {
            PyErr_SetString(PyExc_TypeError, "configure takes the tree's classes");
            return NULL;
        }
    PyTypeObject **slots[8] = {&ScalarT, &MappingT, &SequenceT, &AliasT, &EntryT, &ItemT, &SourceT, &EntrySourceT};
    for (int i = 0; i < 8; i++) {
        Py_INCREF(types[i]);
        Py_XSETREF(*slots[i], (PyTypeObject *)types[i]);
    }
    Py_INCREF(cl);
    Py_XSETREF(comment_lines_fn, cl);
    Py_INCREF(eol);
    Py_XSETREF(eol_comment_fn, eol);
    Py_INCREF(resolve);
    Py_XSETREF(resolve_plain_fn, resolve);
    Py_INCREF(table);
    Py_XSETREF(resolve_map, table);
    Py_RETURN_NONE;
}

static PyObject *libyaml_version(PyObject *self, PyObject *noargs) {
    if (k8sm_unbound()) return NULL;
    return PyUnicode_FromString(Y.version_string());
}

/* ------------------------------------------------------------------ substrings */

typedef struct {
    unsigned key; /* the first two characters */
    const unsigned char *bytes;
    Py_ssize_t length;
    Py_ssize_t index; /* its place in the set's tuple */
} Needle;

/* A set of needles made ready once: those of three or more one-byte characters sorted by
 * their first two, with two bitmaps (hashes of the first two characters and of the first
 * three) of where one may start; the others, left to ``PyUnicode_Contains``, in ``rest``.
 * The bitmaps are small (a run makes a set per combination of apiVersions) and sparse (a
 * set has some forty needles): a false start costs only a look at the needles. */
enum { HASH_BITS = 4096 };

typedef struct {
    PyObject *needles; /* owned: the tuple, which keeps the bytes of ``fast`` alive */
    PyObject *rest;    /* owned: a list of the short or wide needles */
    Py_ssize_t fast_count;
    Needle *fast;
    unsigned char pairs[HASH_BITS / 8], triples[HASH_BITS / 8];
} NeedleSet;

static const char NEEDLE_SET[] = "k8smigrate._fastbuild.NeedleSet";

static unsigned hash2(unsigned a, unsigned b) { return (a * 31u + b) & (HASH_BITS - 1); }
static unsigned hash3(unsigned a, unsigned b, unsigned c) { return (a * 961u + b * 31u + c) & (HASH_BITS - 1); }

static void needle_set_free(PyObject *capsule) {
    NeedleSet *set = PyCapsule_GetPointer(capsule, NEEDLE_SET);
    if (set == NULL) return;
    Py_XDECREF(set->needles);
    Py_XDECREF(set->rest);
    PyMem_Free(set->fast);
    PyMem_Free(set);
}

/* needle_set(needles) -> the tuple of str made ready for ``holds_any`` (an opaque object). */
static PyObject *needle_set(PyObject *self, PyObject *args) {
    PyObject *needles;
    if (!PyArg_ParseTuple(args, "O!", &PyTuple_Type, &needles)) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(needles);
    NeedleSet *set = PyMem_Calloc(1, sizeof(NeedleSet));
    if (set == NULL) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(set, NEEDLE_SET, needle_set_free);
    if (capsule == NULL) {
        PyMem_Free(set);
        return NULL;
    }
    Py_INCREF(needles);
    set->needles = needles;
    if (!(set->rest = PyList_New(0))) goto error;
    if (count > 0 && !(set->fast = PyMem_Calloc((size_t)count, sizeof(Needle)))) {
        PyErr_NoMemory();
        goto error;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *needle = PyTuple_GET_ITEM(needles, i);
        if (!PyUnicode_Check(needle)) {
            PyErr_SetString(PyExc_TypeError, "needle_set takes a tuple of str");
            goto error;
        }
        Py_ssize_t len = PyUnicode_GET_LENGTH(needle);
        if (len < 3 || PyUnicode_KIND(needle) != PyUnicode_1BYTE_KIND) {
            if (PyList_Append(set->rest, needle) < 0) goto error;
            continue;
        }
        const unsigned char *b = PyUnicode_1BYTE_DATA(needle);
        unsigned key = b[0] | (unsigned)b[1] << 8, p = hash2(b[0], b[1]), h = hash3(b[0], b[1], b[2]);
        Py_ssize_t at = set->fast_count++; /* kept sorted by key: insertion */
        while (at > 0 && set->fast[at - 1].key > key) {
            set->fast[at] = set->fast[at - 1];
            at--;
        }
        set->fast[at] = (Needle){key, b, len, i};
        set->pairs[p >> 3] |= (unsigned char)(1u << (p & 7));
        set->triples[h >> 3] |= (unsigned char)(1u << (h & 7));
    }
    return capsule;
error:
    Py_DECREF(capsule);
    return NULL;
}

/* Whether a needle of ``set->fast`` occurs in the text ``t`` of length ``n`` whose characters are
 * of type T (one, two or four bytes: a wider text is searched as it is, its characters past 255
 * starting no needle). With ``found``, every needle that occurs is marked there (by its place in
 * the set's tuple) and the whole text is read; without it, the first one found ends the search. */
#define SEARCH_FAST(NAME, T)                                                                         \
    static int NAME(const NeedleSet *set, const T *t, Py_ssize_t n, unsigned char *found) {         \
        int any = 0;                                                                                 \
        for (Py_ssize_t at = 0; at + 2 < n; at++) {                                                  \
            Py_UCS4 a = t[at], b = t[at + 1], c = t[at + 2];                                         \
            if ((a | b | c) > 255) continue;                                                         \
            unsigned p = hash2(a, b);                                                                \
            if (!(set->pairs[p >> 3] & (1u << (p & 7)))) continue;                                   \
            unsigned h = hash3(a, b, c);                                                             \
            if (!(set->triples[h >> 3] & (1u << (h & 7)))) continue;                                 \
            unsigned key = a | b << 8;                                                               \
            Py_ssize_t lo = 0, hi = set->fast_count; /* the first needle with this key */           \
            while (lo < hi) {                                                                        \
                Py_ssize_t mid = (lo + hi) / 2;                                                      \
                if (set->fast[mid].key < key)                                                        \
                    lo = mid + 1;                                                                    \
                else                                                                                 \
                    hi = mid;                                                                        \
            }                                                                                        \
            for (Py_ssize_t j = lo; j < set->fast_count && set->fast[j].key == key; j++) {           \
                const Needle *nd = &set->fast[j];                                                    \
                if (nd->length > n - at) continue;                                                   \
                Py_ssize_t k = 2;                                                                    \
                while (k < nd->length && t[at + k] == nd->bytes[k]) k++;                             \
                if (k < nd->length) continue;                                                        \
                if (found == NULL) return 1;                                                         \
                found[nd->index] = 1;                                                                \
                any = 1;                                                                             \
            }                                                                                        \
        }                                                                                            \
        return any;                                                                                  \
    }

SEARCH_FAST(search_fast_1, Py_UCS1)
SEARCH_FAST(search_fast_2, Py_UCS2)
SEARCH_FAST(search_fast_4, Py_UCS4)

static int search_fast(const NeedleSet *set, PyObject *text, unsigned char *found) {
    if (set->fast_count == 1) { /* one needle: CPython's own search skips faster than a look at each place */
        Py_ssize_t index = set->fast[0].index;
        int in = PyUnicode_Contains(text, PyTuple_GET_ITEM(set->needles, index));
        if (in > 0 && found != NULL) found[index] = 1;
        return in;
    }
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        return search_fast_1(set, data, n, found);
    case PyUnicode_2BYTE_KIND:
        return search_fast_2(set, data, n, found);
    default:
        return search_fast_4(set, data, n, found);
    }
}

/* The arguments of ``holds_any`` and ``holds_which``: the text (into ``text``) and its needle set
 * (NULL with an exception when they are not a str and a set made by ``needle_set``). */
static NeedleSet *text_and_set(PyObject *args, PyObject **text) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "UO", text, &capsule)) return NULL;
    return PyCapsule_GetPointer(capsule, NEEDLE_SET);
}

/* holds_any(text, needle_set) -> whether ``text`` holds any of the set's needles:
 * ``any(n in text for n in needles)`` in one pass. Every file a run reads is asked this for the
 * triggers of the checks of its apiVersions (some forty names); forty ``in`` scans read the text
 * forty times. A place is looked at only where its first three characters may start a needle
 * (two bitmaps), and then only the needles that start with its first two; a text of wider
 * characters is read the same way. Needles shorter than three characters or of wider
 * characters are left to ``PyUnicode_Contains``. */
static PyObject *holds_any(PyObject *self, PyObject *args) {
    PyObject *text;
    NeedleSet *set = text_and_set(args, &text);
    if (set == NULL) return NULL;
    Py_ssize_t rest = PyList_GET_SIZE(set->rest);
    for (Py_ssize_t i = 0; i < rest; i++) {
        int in = PyUnicode_Contains(text, PyList_GET_ITEM(set->rest, i));
        if (in < 0) return NULL;
        if (in) Py_RETURN_TRUE;
    }
    if (set->fast_count == 0) Py_RETURN_FALSE;
    int in = search_fast(set, text, NULL);
    if (in < 0) return NULL;
    return PyBool_FromLong(in);
}

/* holds_which(text, needle_set) -> the needles of the set that ``text`` holds, in the set's
 * order: ``[n for n in needles if n in text]`` in one pass. The facts of a run ask every
 * collector whether a text holds its trigger and one of its kinds: a look per name, each
 * reading the text, where a wide text (one character past U+00FF: a dash in a description)
 * is read several times slower than ASCII. */
static PyObject *holds_which(PyObject *self, PyObject *args) {
    PyObject *text;
    NeedleSet *set = text_and_set(args, &text);
    if (set == NULL) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(set->needles);
    unsigned char *found = PyMem_Calloc((size_t)(count > 0 ? count : 1), 1);
    if (found == NULL) return PyErr_NoMemory();
    if (set->fast_count > 0 && search_fast(set, text, found) < 0) {
        PyMem_Free(found);
        return NULL;
    }
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out != NULL && i < count; i++) {
        PyObject *needle = PyTuple_GET_ITEM(set->needles, i);
        if (!found[i] && (PyUnicode_GET_LENGTH(needle) < 3 || PyUnicode_KIND(needle) != PyUnicode_1BYTE_KIND)) {
            int in = PyUnicode_Contains(text, needle); /* one of ``rest`` */
            if (in < 0) Py_CLEAR(out);
            found[i] = in > 0;
        }
        if (out != NULL && found[i] && PyList_Append(out, needle) < 0) Py_CLEAR(out);
    }
    PyMem_Free(found);
    return out;
}

/* die_with_parent(signum) -> whether the kernel now sends ``signum`` to this process when its
 * parent dies (Linux's PR_SET_PDEATHSIG; False elsewhere). Here, not through ctypes: importing
 * ctypes was the largest cost of starting a worker process. */
static PyObject *die_with_parent(PyObject *self, PyObject *args) {
    int signum;
    if (!PyArg_ParseTuple(args, "i", &signum)) return NULL;
#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, (unsigned long)signum, 0UL, 0UL, 0UL) == 0) Py_RETURN_TRUE;
#endif
    Py_RETURN_FALSE;
}

/* ------------------------------------------------------------------ a tree's data */

/* The object in slot ``name`` of ``o`` (borrowed), or NULL without an exception where ``o`` does
 * not keep it in a plain slot, or has not set it: ``tree_data`` then declines. */
static PyObject *slot_of(PyObject *o, PyObject *name) {
    Py_ssize_t offset = slot_offset(Py_TYPE(o), name);
    return offset < 0 ? NULL : *(PyObject **)((char *)o + offset);
}

static int ends_with(PyObject *text, const char *suffix) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), k = (Py_ssize_t)strlen(suffix);
    if (n < k) return 0;
    for (Py_ssize_t i = 0; i < k; i++)
        if (PyUnicode_READ_CHAR(text, n - k + i) != (Py_UCS4)(unsigned char)suffix[i]) return 0;
    return 1;
}

/* Scalar.data: a new reference, or NULL where it declines (an exception may be set). */
static PyObject *scalar_value(PyObject *node) {
    PyObject *has_new = slot_of(node, S_has_new_data), *value = slot_of(node, S_value);
    PyObject *style = slot_of(node, S_style), *tag = slot_of(node, S_tag);
    if (!has_new || !value || !style || !tag || !PyUnicode_Check(value) || (tag != Py_None && !PyUnicode_Check(tag)))
        return NULL;
    if (has_new == Py_True) {
        PyObject *data = slot_of(node, S_new_data);
        return data ? Py_NewRef(data) : NULL;
    }
    if (has_new != Py_False) return NULL;
    if (style != Py_None || (tag != Py_None && ends_with(tag, ":str"))) return Py_NewRef(value);
    return plain_data(value, tag != Py_None && ends_with(tag, ":int"));
}

#define DATA_DEPTH 200 /* deeper: declined, so that how deep a document may nest stays to_data's */

/* Node.to_data() of one node, for trees without aliases or merge keys (the anchors to_data
 * records serve only aliases): a new reference, or NULL where it declines (an exception may be
 * set). ``budget``: the nodes it may still read (to_data refuses more). */
static PyObject *node_data(PyObject *node, int depth, Py_ssize_t *budget) {
    if (depth > DATA_DEPTH || --*budget < 0) return NULL;
    if (PyObject_TypeCheck(node, ScalarT)) return scalar_value(node);
    if (PyObject_TypeCheck(node, SequenceT)) {
        PyObject *items = slot_of(node, S_items);
        if (items == NULL || !PyList_CheckExact(items)) return NULL;
        Py_ssize_t n = PyList_GET_SIZE(items);
        PyObject *out = PyList_New(n);
        for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
            PyObject *value = slot_of(PyList_GET_ITEM(items, i), S_value);
            PyObject *data = value ? node_data(value, depth + 1, budget) : NULL;
            if (data == NULL)
                Py_CLEAR(out);
            else
                PyList_SET_ITEM(out, i, data);
        }
        return out;
    }
    if (!PyObject_TypeCheck(node, MappingT)) return NULL; /* an Alias, or not a tree node */
    PyObject *entries = slot_of(node, S_entries);
    if (entries == NULL || !PyList_CheckExact(entries)) return NULL;
    PyObject *out = PyDict_New();
    for (Py_ssize_t i = 0; out != NULL && i < PyList_GET_SIZE(entries); i++) {
        PyObject *e = PyList_GET_ITEM(entries, i);
        PyObject *key = slot_of(e, S_key), *value = slot_of(e, S_value);
        PyObject *kv = key && PyObject_TypeCheck(key, ScalarT) ? slot_of(key, S_value) : NULL;
        PyObject *kstyle = kv ? slot_of(key, S_style) : NULL;
        if (value == NULL || kstyle == NULL || !PyUnicode_Check(kv) ||
            (kstyle == Py_None && PyUnicode_CompareWithASCIIString(kv, "<<") == 0)) { /* a merge key */
            Py_CLEAR(out);
            break;
        }
        PyObject *data = node_data(value, depth + 1, budget);
        PyObject *kdata = data ? scalar_value(key) : NULL, *text = NULL; /* _key_text */
        if (kdata == Py_True || kdata == Py_False || kdata == Py_None)
            text = PyUnicode_FromString(kdata == Py_True ? "true" : kdata == Py_False ? "false" : "null");
        else if (kdata != NULL)
            text = PyUnicode_CheckExact(kdata) ? Py_NewRef(kdata) : PyObject_Str(kdata);
        if (text == NULL || PyDict_SetItem(out, text, data) < 0) Py_CLEAR(out);
        Py_XDECREF(text);
        Py_XDECREF(kdata);
        Py_XDECREF(data);
    }
    return out;
}

/* tree_data(node, budget) -> [node.to_data()], or None: declined (to_data then answers, or raises
 * what it raises). Reading a changed document back compares the new text's data with the tree's:
 * one Python call per node, most of the read-back of a moved CRD schema. Declined where to_data
 * does more than read: aliases, merge keys, more than ``budget`` nodes (it refuses them), deep
 * nesting (its recursion limit is part of the output), a node of another class, an error. */
static PyObject *tree_data(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "tree_data(node, budget: int)");
        return NULL;
    }
    if (ScalarT == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastbuild.configure was not called");
        return NULL;
    }
    Py_ssize_t budget = PyLong_AsSsize_t(args[1]);
    if (budget == -1 && PyErr_Occurred()) return NULL;
    PyObject *data = node_data(args[0], 0, &budget);
    if (data == NULL) {
        PyErr_Clear(); /* whatever went wrong, to_data meets it again and says it its way */
        Py_RETURN_NONE;
    }
    /* None is data too (a null document): a one-element list tells it from declining */
    PyObject *out = PyList_New(1);
    if (out == NULL) {
        Py_DECREF(data);
        return NULL;
    }
    PyList_SET_ITEM(out, 0, data);
    return out;
}

/* Node.pristine() of one node: 1, 0, or -1 where it declines (a node of another class, an
 * attribute not in a plain slot, a flag that is not a bool, deep nesting). */
static int node_pristine(PyObject *node, int depth) {
    if (depth > DATA_DEPTH) return -1;
    PyObject *src = slot_of(node, S_src), *dirty = slot_of(node, S_dirty);
    if (src == NULL || dirty == NULL || (dirty != Py_True && dirty != Py_False)) return -1;
    if (src == Py_None || dirty == Py_True) return 0;
    int map = PyObject_TypeCheck(node, MappingT);
    if (!map && !PyObject_TypeCheck(node, SequenceT)) return 1;
    PyObject *children = slot_of(node, map ? S_entries : S_items);
    if (children == NULL || !PyList_CheckExact(children)) return -1;
    int answer = 1;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(children); i++) { /* every child's own flags first, as pristine() */
        PyObject *child = PyList_GET_ITEM(children, i);
        PyObject *csrc = slot_of(child, S_src), *renamed = map ? slot_of(child, S_renamed) : Py_False;
        if (csrc == NULL || renamed == NULL || (renamed != Py_True && renamed != Py_False)) return -1;
        if (csrc == Py_None || renamed == Py_True) answer = 0;
    }
    for (Py_ssize_t i = 0; answer == 1 && i < PyList_GET_SIZE(children); i++) {
        PyObject *value = slot_of(PyList_GET_ITEM(children, i), S_value);
        answer = value == NULL ? -1 : node_pristine(value, depth + 1);
    }
    return answer;
}

/* tree_pristine(node) -> node.pristine(), or None where it declines (pristine() then answers).
 * The renderer asks it of every node it writes, to copy what is unchanged. */
static PyObject *tree_pristine(PyObject *self, PyObject *node) {
    if (ScalarT == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastbuild.configure was not called");
        return NULL;
    }
    int answer = node_pristine(node, 0);
    if (answer < 0) Py_RETURN_NONE;
    return PyBool_FromLong(answer);
}

/* ------------------------------------------------------------------ a document's layout */

/* ``counts[key] += 1`` for an int or str key; -1 with an exception. */
static int tally(PyObject *counts, PyObject *key) {
    PyObject *old = PyDict_GetItemWithError(counts, key);
    if (old == NULL && PyErr_Occurred()) return -1;
    PyObject *count = PyLong_FromLong(old ? PyLong_AsLong(old) + 1 : 1);
    int bad = count == NULL || PyDict_SetItem(counts, key, count) < 0;
    Py_XDECREF(count);
    return bad ? -1 : 0;
}

/* An int slot of ``o`` as a C value: 0, or -1 where it is not an int in a plain slot. */
static int int_slot(PyObject *o, PyObject *name, Py_ssize_t *out) {
    PyObject *v = o ? slot_of(o, name) : NULL;
    if (v == NULL || !PyLong_CheckExact(v)) return -1;
    *out = PyLong_AsSsize_t(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* What ``render._tallies`` counts in one block mapping: each child collection's indentation
 * under its key. 1: done, 0: declined, -1: an exception. */
static int tally_mapping(PyObject *text, PyObject *node, PyObject *steps, PyObject *offsets) {
    PyObject *entries = slot_of(node, S_entries);
    if (entries == NULL || !PyList_CheckExact(entries)) return 0;
    Py_ssize_t size = PyUnicode_GET_LENGTH(text);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(entries); i++) {
        PyObject *e = PyList_GET_ITEM(entries, i);
        PyObject *child = slot_of(e, S_value), *key = slot_of(e, S_key);
        PyObject *csrc = child ? slot_of(child, S_src) : NULL, *ksrc = key ? slot_of(key, S_src) : NULL;
        if (csrc == NULL || ksrc == NULL) return 0;
        if (csrc == Py_None) continue;
        Py_ssize_t start, col, kcol;
        if (int_slot(csrc, S_start, &start) < 0) return PyErr_Occurred() ? -1 : 0;
        if (start < 0 || ksrc == Py_None) continue;
        if (start < size) {
            Py_UCS4 c = PyUnicode_READ_CHAR(text, start);
            if (c == '{' || c == '[') continue; /* written in flow style (and only now, maybe, as a block) */
        }
        int map = PyObject_TypeCheck(child, MappingT), seq = !map && PyObject_TypeCheck(child, SequenceT);
        if (!map && !seq) continue;
        PyObject *flow = slot_of(child, S_flow), *kids = slot_of(child, map ? S_entries : S_items);
        if (flow == NULL || kids == NULL || (flow != Py_True && flow != Py_False) || !PyList_CheckExact(kids)) return 0;
        if (flow == Py_True || PyList_GET_SIZE(kids) == 0) continue;
        if (int_slot(csrc, S_col, &col) < 0 || int_slot(ksrc, S_col, &kcol) < 0) return PyErr_Occurred() ? -1 : 0;
        PyObject *delta = PyLong_FromSsize_t(col - kcol);
        int bad = delta == NULL || tally(map ? steps : offsets, delta) < 0;
        Py_XDECREF(delta);
        if (bad) return -1;
    }
    return 1;
}

/* style_tallies(text, root, sample) -> (steps, offsets, quotes), or None where it declines:
 * render._tallies, the counts ``detect_style`` reads a document's layout from, over the first
 * ``sample`` nodes in ``tree.nodes`` order. Each rendered document asks it, over some hundreds
 * of nodes. */
static PyObject *style_tallies(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyUnicode_Check(args[0]) || !PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "style_tallies(text: str, root, sample: int)");
        return NULL;
    }
    if (ScalarT == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastbuild.configure was not called");
        return NULL;
    }
    PyObject *text = args[0];
    Py_ssize_t sample = PyLong_AsSsize_t(args[2]);
    if (sample == -1 && PyErr_Occurred()) return NULL;
    PyObject *steps = PyDict_New(), *offsets = PyDict_New(), *quotes = PyDict_New();
    PyObject *stack = PyList_New(0); /* borrowed nodes would do (nothing runs that edits the tree) */
    int ok = steps && offsets && quotes && stack && PyList_Append(stack, args[1]) == 0;
    for (Py_ssize_t seen = 0; ok == 1 && seen < sample && PyList_GET_SIZE(stack) > 0; seen++) {
        Py_ssize_t top = PyList_GET_SIZE(stack) - 1;
        PyObject *node = Py_NewRef(PyList_GET_ITEM(stack, top));
        ok = PyList_SetSlice(stack, top, top + 1, NULL) == 0;
        int map = PyObject_TypeCheck(node, MappingT), seq = !map && PyObject_TypeCheck(node, SequenceT);
        if (ok && map) {
            PyObject *flow = slot_of(node, S_flow), *src = slot_of(node, S_src);
            if (flow == NULL || src == NULL || (flow != Py_True && flow != Py_False))
                ok = 0;
            else if (flow == Py_False && src != Py_None)
                ok = tally_mapping(text, node, steps, offsets);
        } else if (ok && PyObject_TypeCheck(node, ScalarT)) {
            PyObject *style = slot_of(node, S_style);
            if (style == NULL)
                ok = 0;
            else if (PyUnicode_Check(style) && (PyUnicode_CompareWithASCIIString(style, "'") == 0 ||
                                                PyUnicode_CompareWithASCIIString(style, "\"") == 0))
                ok = tally(quotes, style) == 0 ? 1 : -1;
        }
        if (ok == 1 && (map || seq)) { /* children, last first: popped in order */
            PyObject *kids = slot_of(node, map ? S_entries : S_items);
            if (kids == NULL || !PyList_CheckExact(kids)) ok = 0;
            for (Py_ssize_t i = ok == 1 ? PyList_GET_SIZE(kids) - 1 : -1; ok == 1 && i >= 0; i--) {
                PyObject *value = slot_of(PyList_GET_ITEM(kids, i), S_value);
                ok = value == NULL ? 0 : PyList_Append(stack, value) == 0 ? 1 : -1;
            }
        }
        Py_DECREF(node);
    }
    Py_XDECREF(stack);
    PyObject *out = ok == 1 ? PyTuple_Pack(3, steps, offsets, quotes) : NULL;
    Py_XDECREF(steps);
    Py_XDECREF(offsets);
    Py_XDECREF(quotes);
    if (out == NULL) {
        PyErr_Clear(); /* declined, or it went wrong: _tallies reads it, and says what is wrong its way */
        Py_RETURN_NONE;
    }
    return out;
}

/* reindent(chunk, delta) -> render.reindent(chunk, delta): every line after the first shifted by
 * ``delta`` columns (spaces added, or up to -delta leading spaces taken off), a blank line (only
 * str.isspace() characters) left as it is unless it is the last line and not empty. Rendering a
 * moved CRD schema shifts each of its entries' pieces: some fourteen thousand calls, and in
 * Python each split, looped over and joined its lines, a quarter of the rendering. The output has
 * the characters of the chunk, spaces aside, so its kind is the chunk's. */
static PyObject *shifted(PyObject *chunk, Py_ssize_t delta) {
    int kind = PyUnicode_KIND(chunk);
    const void *data = PyUnicode_DATA(chunk);
    Py_ssize_t n = PyUnicode_GET_LENGTH(chunk);
    Py_ssize_t first = n;
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyUnicode_READ(kind, data, i) == '\n') {
            first = i;
            break;
        }
    if (delta == 0 || first == n) return Py_NewRef(chunk);
    /* Two passes over the lines after the first: the length, then the characters. */
    PyObject *out = NULL;
    void *odata = NULL;
    Py_ssize_t size = first; /* the first line, copied as it is */
    for (int pass = 0; pass < 2; pass++) {
        Py_ssize_t at = first; /* the newline before the line */
        Py_ssize_t o = first;
        if (pass) memcpy(odata, data, (size_t)first * (size_t)kind);
        while (at < n) {
            Py_ssize_t start = at + 1, end = start;
            int blank = 1;
            while (end < n) {
                Py_UCS4 c = PyUnicode_READ(kind, data, end);
                if (c == '\n') break;
                if (blank && !Py_UNICODE_ISSPACE(c)) blank = 0;
                end++;
            }
            int last = end == n;
            Py_ssize_t cut = 0, add = 0;
            if (!(blank && (!last || end == start))) {
                if (delta > 0)
                    add = delta;
                else
                    while (cut < -delta && start + cut < end && PyUnicode_READ(kind, data, start + cut) == ' ') cut++;
            }
            Py_ssize_t len = end - start - cut;
            if (!pass) {
                size += 1 + add + len;
            } else {
                PyUnicode_WRITE(kind, odata, o, '\n');
                o++;
                for (Py_ssize_t k = 0; k < add; k++) PyUnicode_WRITE(kind, odata, o + k, ' ');
                o += add;
                memcpy((char *)odata + o * kind, (const char *)data + (start + cut) * kind, (size_t)len * (size_t)kind);
                o += len;
            }
            at = end;
        }
        if (!pass) {
            out = PyUnicode_New(size, PyUnicode_MAX_CHAR_VALUE(chunk));
            if (out == NULL) return NULL;
            odata = PyUnicode_DATA(out);
        }
    }
    return out;
}

static PyObject *reindent(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyUnicode_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "reindent(chunk: str, delta: int)");
        return NULL;
    }
    Py_ssize_t delta = PyLong_AsSsize_t(args[1]);
    if (delta == -1 && PyErr_Occurred()) return NULL;
    return shifted(args[0], delta);
}

/* ------------------------------------------------------------------ an unchanged entry */

/* The lines above an entry (Renderer._head): a new reference, or NULL with an exception. */
static PyObject *entry_head(PyObject *text, Py_ssize_t hs, Py_ssize_t ls, Py_ssize_t col, Py_ssize_t delta,
                            int first) {
    PyObject *head = PyUnicode_Substring(text, hs, ls), *out = NULL;
    if (head == NULL) return NULL;
    if (first) { /* stripped of the whitespace before it; nothing at all when that is all it is */
        Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(head);
        while (i < n && Py_UNICODE_ISSPACE(PyUnicode_READ_CHAR(head, i))) i++;
        if (i == n) {
            Py_DECREF(head);
            return PyUnicode_New(0, 0);
        }
        Py_SETREF(head, PyUnicode_Substring(head, i, n));
        out = head ? shifted(head, delta) : NULL;
    } else if (delta && hs > 0 && PyUnicode_READ_CHAR(text, hs - 1) == '\n') {
        /* it starts a line: its first line moves with the block too (_reindent_lines) */
        PyObject *lined = PyUnicode_Substring(text, hs - 1, ls), *moved = lined ? shifted(lined, delta) : NULL;
        out = moved ? PyUnicode_Substring(moved, 1, PyUnicode_GET_LENGTH(moved)) : NULL;
        Py_XDECREF(lined);
        Py_XDECREF(moved);
    } else {
        out = shifted(head, delta);
    }
    Py_XDECREF(head);
    if (out == NULL || col <= 0) return out;
    PyObject *pad = PyUnicode_New(col, 127);
    if (pad == NULL) {
        Py_DECREF(out);
        return NULL;
    }
    memset(PyUnicode_DATA(pad), ' ', (size_t)col);
    PyObject *joined = PyUnicode_Concat(out, pad);
    Py_DECREF(out);
    Py_DECREF(pad);
    return joined;
}

/* original_entry(text, entry, col, delta, first) -> Renderer._original_entry(entry, col, delta,
 * first), for an entry whose key and value are as parsed (the value pristine, with no anchor,
 * written where it stood and in the shape it had); None for any other entry (the renderer then
 * writes it). A moved CRD schema is thousands of such entries, each a dozen Python calls. */
static PyObject *original_entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 || !PyUnicode_Check(args[0]) || !PyLong_Check(args[2]) || !PyLong_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "original_entry(text: str, entry, col: int, delta: int, first: bool)");
        return NULL;
    }
    if (ScalarT == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_fastbuild.configure was not called");
        return NULL;
    }
    PyObject *text = args[0], *e = args[1];
    Py_ssize_t col = PyLong_AsSsize_t(args[2]), delta = PyLong_AsSsize_t(args[3]);
    int first = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred() || first < 0) return NULL;
    Py_ssize_t size = PyUnicode_GET_LENGTH(text);
    PyObject *s = slot_of(e, S_src), *key = slot_of(e, S_key), *value = slot_of(e, S_value);
    if (s == NULL || s == Py_None || key == NULL || value == NULL) Py_RETURN_NONE;
    Py_ssize_t hs, ls, ks, ke, vs, ve, end, kstart, kend, start, stop;
    if (int_slot(s, S_head_start, &hs) || int_slot(s, S_line_start, &ls) || int_slot(s, S_key_start, &ks) ||
        int_slot(s, S_key_end, &ke) || int_slot(s, S_value_start, &vs) || int_slot(s, S_value_end, &ve) ||
        int_slot(s, S_end, &end))
        goto declined;
    /* the key as parsed (Renderer.key) */
    PyObject *kdirty = PyObject_TypeCheck(key, ScalarT) ? slot_of(key, S_dirty) : NULL, *ksrc = slot_of(key, S_src);
    if (kdirty != Py_False || ksrc == NULL || ksrc == Py_None || int_slot(ksrc, S_start, &kstart) ||
        int_slot(ksrc, S_end, &kend))
        goto declined;
    /* the value as parsed, where it stood (_same_value, not _made_block), nothing to add to it */
    int scalar = PyObject_TypeCheck(value, ScalarT), map = PyObject_TypeCheck(value, MappingT);
    int seq = !map && PyObject_TypeCheck(value, SequenceT);
    PyObject *anchor = slot_of(value, S_anchor), *vsrc = slot_of(value, S_src);
    if ((!scalar && !map && !seq) || anchor != Py_None || vsrc == NULL || vsrc == Py_None ||
        int_slot(vsrc, S_start, &start) || int_slot(vsrc, S_end, &stop) || start != vs || start < 0)
        goto declined;
    int flow = 0;
    if (scalar) {
        if (slot_of(value, S_has_new_data) != Py_False) goto declined; /* its separator may change */
    } else {
        PyObject *f = slot_of(value, S_flow), *kids = slot_of(value, map ? S_entries : S_items);
        if ((f != Py_True && f != Py_False) || kids == NULL || !PyList_CheckExact(kids)) goto declined;
        flow = f == Py_True;
        if (!flow && (PyList_GET_SIZE(kids) == 0 || (start < size && (PyUnicode_READ_CHAR(text, start) == '{' ||
                                                                        PyUnicode_READ_CHAR(text, start) == '['))))
            goto declined; /* written afresh, or a flow collection now a block */
        if (map) { /* _without_carried_lead: left to the renderer where a first key's comments may move */
            PyObject *firstkey = slot_of(value, S_first);
            PyObject *comments = firstkey && firstkey != Py_None ? slot_of(firstkey, S_head_comments) : NULL;
            if (firstkey == NULL || (firstkey != Py_None && (comments == NULL || !PyList_CheckExact(comments) ||
                                                             PyList_GET_SIZE(comments) > 0)))
                goto declined;
        }
    }
    if (node_pristine(value, 0) != 1) goto declined;
    if (!(0 <= hs && hs <= ls && ls <= ks && ks <= ke && ke <= vs && vs <= stop && ve <= size && end <= size &&
          kstart <= kend && kend <= size && stop <= size))
        goto declined;
    PyObject *parts[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    parts[0] = entry_head(text, hs, ls, col, delta, first);
    Py_ssize_t m = ls; /* "? " before an explicit key, its indentation taken off */
    while (m < ks && PyUnicode_READ_CHAR(text, m) == ' ') m++;
    parts[1] = PyUnicode_Substring(text, m, ks);
    parts[2] = PyUnicode_Substring(text, kstart, kend);
    PyObject *sep = PyUnicode_Substring(text, ke, vs), *copied = PyUnicode_Substring(text, start, stop);
    parts[3] = sep ? shifted(sep, delta) : NULL;
    parts[4] = copied ? shifted(copied, delta) : NULL;
    Py_XDECREF(sep);
    Py_XDECREF(copied);
    if (parts[4] != NULL && ve > end) { /* _within_entry: a block scalar's blank lines, once */
        PyObject *overlap = PyUnicode_Substring(text, end, ve);
        Py_ssize_t n = PyUnicode_GET_LENGTH(parts[4]), k = ve - end;
        int tailmatch = overlap ? (int)PyUnicode_Tailmatch(parts[4], overlap, 0, n, 1) : -1;
        Py_XDECREF(overlap);
        if (tailmatch < 0)
            Py_CLEAR(parts[4]);
        else if (tailmatch)
            Py_SETREF(parts[4], PyUnicode_Substring(parts[4], 0, n - k));
    }
    parts[5] = scalar || flow ? PyUnicode_Substring(text, ve, end > ve ? end : ve) : PyUnicode_New(0, 0);
    PyObject *out = NULL;
    if (parts[0] && parts[1] && parts[2] && parts[3] && parts[4] && parts[5]) {
        PyObject *list = PyList_New(6);
        if (list != NULL) {
            for (int i = 0; i < 6; i++) PyList_SET_ITEM(list, i, Py_NewRef(parts[i]));
            out = PyUnicode_Join(empty_str, list);
            Py_DECREF(list);
        }
    }
    for (int i = 0; i < 6; i++) Py_XDECREF(parts[i]);
    return out;
declined:
    PyErr_Clear(); /* a position past what a Py_ssize_t holds: the renderer's to write */
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"build", build, METH_VARARGS,
     "build(text, offset, end) -> list of (start, end, line, root, shares), or None: the documents of "
     "text[offset:end] built as pybuild.py builds them (None: left to pybuild.py)."},
    {"read_data", read_data, METH_VARARGS,
     "read_data(text) -> the data of every document, as readback.read_data reads it, or None (left to it)."},
    {"configure", configure, METH_VARARGS,
     "configure(Scalar, Mapping, Sequence, Alias, Entry, Item, Source, EntrySource, comment_lines, eol_comment, "
     "resolve_plain)"},
    {"libyaml_version", libyaml_version, METH_NOARGS, "The version of the libyaml ``bind`` bound."},
    {"bind", bind, METH_VARARGS,
     "bind(path) -> the version of the libyaml of the shared object at path, now used; or None (unusable)."},
    {"accepts", accepts, METH_VARARGS, "accepts(text) -> whether libyaml reads the whole text without an error."},
    {"accepts_each", accepts_each, METH_VARARGS,
     "accepts_each(texts, verdicts) -> None: accepts() of each UTF-8 bytes, the GIL released, each verdict stored "
     "at verdicts[i] when known (1 yes, 2 no); a non-zero verdicts[len(texts)] stops it."},
    {"prefetch_start", k8sm_prefetch_start, METH_VARARGS,
     "prefetch_start(roots, suffixes, chart_file, max_depth, max_file, limit) -> whether a thread now reads the files "
     "below roots and checks each with libyaml (see _prefetch.c)."},
    {"prefetch_take", k8sm_prefetch_take, METH_VARARGS,
     "prefetch_take(hurry=True) -> (paths, raws, verdicts) of what the thread read (verdicts 0: not checked), or "
     "None; the thread is ended first (told to check no more files unless hurry is false) and forgets it all."},
    {"needle_set", needle_set, METH_VARARGS, "needle_set(needles) -> the tuple of str needles made ready for holds_any."},
    {"die_with_parent", die_with_parent, METH_VARARGS,
     "die_with_parent(signum) -> whether the kernel sends signum to this process when its parent dies (Linux)."},
    {"holds_which", holds_which, METH_VARARGS,
     "holds_which(text, needle_set) -> the needles of the set that text holds, in the set's order."},
    {"holds_any", holds_any, METH_VARARGS, "holds_any(text, needle_set) -> whether text holds any of the set's needles."},
    {"style_tallies", (PyCFunction)(void (*)(void))style_tallies, METH_FASTCALL,
     "style_tallies(text, root, sample) -> (steps, offsets, quotes): render._tallies, or None where it declines."},
    {"original_entry", (PyCFunction)(void (*)(void))original_entry, METH_FASTCALL,
     "original_entry(text, entry, col, delta, first) -> Renderer._original_entry of an unchanged entry, or None."},
    {"tree_pristine", tree_pristine, METH_O,
     "tree_pristine(node) -> node.pristine(), or None where it declines (pristine() then answers)."},
    {"tree_data", (PyCFunction)(void (*)(void))tree_data, METH_FASTCALL,
     "tree_data(node, budget) -> [node.to_data()], or None where it declines (to_data then answers)."},
    {"reindent", (PyCFunction)(void (*)(void))reindent, METH_FASTCALL,
     "reindent(chunk, delta) -> render.reindent(chunk, delta): the lines after the first shifted by delta columns."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastbuild", "The tree builder of pybuild.py in C.", -1,
                                    methods};

#define INTERN(var, s)                                   \
    do {                                                 \
        if (!((var) = PyUnicode_InternFromString(s))) return NULL; \
    } while (0)

PyMODINIT_FUNC PyInit__fastbuild(void) {
    INTERN(S_src, "src");
    INTERN(S_anchor, "anchor");
    INTERN(S_tag, "tag");
    INTERN(S_dirty, "dirty");
    INTERN(S_line, "line");
    INTERN(S_value, "value");
    INTERN(S_style, "style");
    INTERN(S_new_data, "new_data");
    INTERN(S_has_new_data, "has_new_data");
    INTERN(S_entries, "entries");
    INTERN(S_flow, "flow");
    INTERN(S_first, "first");
    INTERN(S_items, "items");
    INTERN(S_name, "name");
    INTERN(S_target, "target");
    INTERN(S_start, "start");
    INTERN(S_end, "end");
    INTERN(S_col, "col");
    INTERN(S_open_end, "open_end");
    INTERN(S_close_start, "close_start");
    INTERN(S_sep, "sep");
    INTERN(S_parent_id, "parent_id");
    INTERN(S_index, "index");
    INTERN(S_head_start, "head_start");
    INTERN(S_line_start, "line_start");
    INTERN(S_key_start, "key_start");
    INTERN(S_key_end, "key_end");
    INTERN(S_value_start, "value_start");
    INTERN(S_value_end, "value_end");
    INTERN(S_key, "key");
    INTERN(S_head_comments, "head_comments");
    INTERN(S_eol_comment, "eol_comment");
    INTERN(S_renamed, "renamed");
    INTERN(S_carried, "carried");
    INTERN(STYLE_SQ, "'");
    INTERN(STYLE_DQ, "\"");
    INTERN(STYLE_LIT, "|");
    INTERN(STYLE_FOLD, ">");
    if (!(empty_tuple = PyTuple_New(0))) return NULL;
    INTERN(empty_str, "");
    INTERN(S_true, "true");
    INTERN(S_false, "false");
    INTERN(S_null, "null");
    return PyModule_Create(&module);
}
