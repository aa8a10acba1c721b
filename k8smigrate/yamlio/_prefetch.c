/* The files of a run, read and checked by libyaml on another core while the library loads.
 *
 * A short run spends its first third importing Python modules, on one core. Reading its files
 * and libyaml's check of each (``accepts``, the only parse most files get) need no Python
 * object: this thread does both from the moment the command line is known, so that the run
 * finds them done (``prefetch.py`` says how they are used, and when they are not).
 *
 * It walks the paths as files.py walks them, only more cautiously: regular files named
 * *.yaml, *.yml or *.json, below folders that are not links, not dot-folders and not Helm
 * charts, not deeper than files.py goes. Anything else (a link, a special file, a chart, a
 * file it cannot read) it leaves alone: the run reads it as usual. A path is written as
 * files.py writes it (``os.path.join`` of the folder and the name), so the run finds each
 * file it read by its path. When the files exceed ``limit`` bytes in all, it stops and keeps
 * nothing: a run that large does not read its files ahead in one process.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_prefetch.h"

#ifndef _WIN32
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

typedef struct {
    char *path;
    char *data;
    size_t size;
} Got;

typedef struct {
    char *path;
    int depth;
} Folder;

static struct {
    pthread_t thread;
    int running;                  /* started and not joined */
    char **roots;
    Py_ssize_t nroots;
    char **suffixes;
    Py_ssize_t nsuffixes;
    char *chart_file;
    int max_depth;
    size_t max_file, limit;
    Got *got;
    size_t n, cap, total;
    unsigned char *verdicts;      /* one per file read, filled after every file is read */
    int over;                     /* more than ``limit``: nothing is kept */
    int hurry;                    /* set by ``prefetch_take``: no more checks */
} P;

static char *joined(const char *folder, const char *name) {
    size_t a = strlen(folder), b = strlen(name);
    if (a == 1 && folder[0] == '.') return strdup(name);
    int slash = a > 0 && folder[a - 1] != '/';
    char *out = malloc(a + slash + b + 1);
    if (!out) return NULL;
    memcpy(out, folder, a);
    if (slash) out[a] = '/';
    memcpy(out + a + slash, name, b + 1);
    return out;
}

static int wanted_name(const char *name) {
    size_t n = strlen(name);
    for (Py_ssize_t i = 0; i < P.nsuffixes; i++) {
        size_t s = strlen(P.suffixes[i]);
        if (n >= s && memcmp(name + n - s, P.suffixes[i], s) == 0) return 1;
    }
    return 0;
}

/* The bytes of an open regular file of about ``expected`` bytes; NULL past ``max_file``. */
static char *read_all(int fd, size_t expected, size_t *size) {
    size_t cap = expected + 1, n = 0;
    char *data = malloc(cap);
    while (data) {
        if (n == cap) { /* it grew since fstat */
            if (cap > P.max_file) break;
            char *more = realloc(data, cap * 2);
            if (!more) break;
            data = more;
            cap *= 2;
        }
        ssize_t r = read(fd, data + n, cap - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) break;
        if (r == 0) {
            if (n > P.max_file) break;
            *size = n;
            return data;
        }
        n += (size_t)r;
    }
    free(data);
    return NULL;
}

/* Keep ``path`` (taken) with its bytes, if it is a regular file no larger than ``max_file``. */
static void read_file(char *path) {
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    char *data = NULL;
    size_t size = 0;
    if (fd >= 0) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= P.max_file)
            data = read_all(fd, (size_t)st.st_size, &size);
        close(fd);
    }
    if (data && P.n == P.cap) {
        size_t more = P.cap ? P.cap * 2 : 256;
        Got *bigger = realloc(P.got, more * sizeof(Got));
        if (bigger) {
            P.got = bigger;
            P.cap = more;
        }
    }
    if (!data || P.n == P.cap) {
        free(data);
        free(path);
        return;
    }
    P.got[P.n++] = (Got){path, data, size};
    P.total += size;
    if (P.total > P.limit) P.over = 1;
}

static int is_dot_or_dotdot(const char *name) {
    return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0));
}

typedef struct {
    char *path;
    char *name; /* inside ``path`` */
    int type;   /* DT_DIR, DT_REG, or anything else */
} Child;

/* The entries of a folder (NULL when it cannot be read; *count 0 for an empty one). */
static Child *children_of(const char *folder, size_t *count) {
    DIR *dir = opendir(folder);
    if (!dir) return NULL;
    size_t n = 0, cap = 32;
    Child *out = malloc(cap * sizeof(Child));
    struct dirent *e;
    while (out && (e = readdir(dir)) != NULL) {
        if (is_dot_or_dotdot(e->d_name)) continue;
        char *path = joined(folder, e->d_name);
        if (!path) continue;
        int type = e->d_type;
        if (type == DT_UNKNOWN) {
            struct stat st;
            type = lstat(path, &st) != 0 ? -1 : S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : -1;
        }
        if (n == cap) {
            Child *bigger = realloc(out, cap * 2 * sizeof(Child));
            if (!bigger) {
                free(path);
                break;
            }
            out = bigger;
            cap *= 2;
        }
        out[n++] = (Child){path, path + strlen(path) - strlen(e->d_name), type};
    }
    closedir(dir);
    *count = n;
    return out;
}

/* Every wanted file below the folder ``root``, iteratively (no recursion limit). */
static void walk(const char *root) {
    size_t top = 0, cap = 16;
    Folder *stack = malloc(cap * sizeof(Folder));
    char *first = strdup(root);
    if (!stack || !first) {
        free(stack);
        free(first);
        return;
    }
    stack[top++] = (Folder){first, 0};
    while (top) {
        Folder f = stack[--top];
        size_t n = 0;
        Child *children = P.over ? NULL : children_of(f.path, &n);
        int chart = 0; /* a Helm chart is read as files.py reads one (its templates): not here */
        for (size_t i = 0; i < n; i++)
            chart |= children[i].type != DT_DIR && strcmp(children[i].name, P.chart_file) == 0;
        for (size_t i = 0; i < n; i++) {
            Child c = children[i];
            if (chart || P.over) {
                free(c.path);
            } else if (c.type == DT_DIR && c.name[0] != '.' && f.depth < P.max_depth) {
                if (top == cap) {
                    Folder *bigger = realloc(stack, cap * 2 * sizeof(Folder));
                    if (!bigger) {
                        free(c.path);
                        continue;
                    }
                    stack = bigger;
                    cap *= 2;
                }
                stack[top++] = (Folder){c.path, f.depth + 1};
            } else if (c.type == DT_REG && wanted_name(c.name)) {
                read_file(c.path);
            } else {
                free(c.path);
            }
        }
        free(children);
        free(f.path);
    }
    free(stack);
}

static void *run(void *unused) {
    (void)unused;
    for (Py_ssize_t i = 0; i < P.nroots && !P.over; i++) {
        struct stat st;
        if (lstat(P.roots[i], &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            walk(P.roots[i]);
        } else if (S_ISREG(st.st_mode)) {
            char *path = strdup(P.roots[i]);
            if (path) read_file(path);
        }
    }
    if (P.over) return NULL;
    P.verdicts = calloc(P.n ? P.n : 1, 1);
    if (!P.verdicts) return NULL;
    for (size_t i = 0; i < P.n; i++) {
        if (__atomic_load_n(&P.hurry, __ATOMIC_ACQUIRE)) break;
        P.verdicts[i] = k8sm_parses(P.got[i].data, (Py_ssize_t)P.got[i].size) ? 1 : 2;
    }
    return NULL;
}

static void drop(void) {
    for (size_t i = 0; i < P.n; i++) {
        free(P.got[i].path);
        free(P.got[i].data);
    }
    free(P.got);
    free(P.verdicts);
    for (Py_ssize_t i = 0; i < P.nroots; i++) free(P.roots[i]);
    free(P.roots);
    for (Py_ssize_t i = 0; i < P.nsuffixes; i++) free(P.suffixes[i]);
    free(P.suffixes);
    free(P.chart_file);
    memset(&P, 0, sizeof(P));
}

static char **strings(PyObject *seq, Py_ssize_t *count, int fs) {
    PyObject *fast = PySequence_Fast(seq, "a list of str was expected");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    char **out = calloc(n ? n : 1, sizeof(char *));
    if (!out) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        PyObject *bytes = NULL;
        if (!PyUnicode_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "a list of str was expected");
        } else {
            bytes = fs ? PyUnicode_EncodeFSDefault(item) : PyUnicode_AsUTF8String(item);
        }
        if (bytes && (size_t)PyBytes_GET_SIZE(bytes) != strlen(PyBytes_AS_STRING(bytes))) {
            PyErr_SetString(PyExc_ValueError, "embedded null byte");
            Py_CLEAR(bytes);
        }
        if (bytes) out[i] = strdup(PyBytes_AS_STRING(bytes));
        Py_XDECREF(bytes);
        if (!out[i]) {
            for (Py_ssize_t j = 0; j < i; j++) free(out[j]);
            free(out);
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_NoMemory();
            return NULL;
        }
    }
    Py_DECREF(fast);
    *count = n;
    return out;
}

static void finish(int hurry) {
    if (!P.running) return;
    if (hurry) __atomic_store_n(&P.hurry, 1, __ATOMIC_RELEASE);
    Py_BEGIN_ALLOW_THREADS
    pthread_join(P.thread, NULL);
    Py_END_ALLOW_THREADS
    P.running = 0;
}

PyObject *k8sm_prefetch_start(PyObject *self, PyObject *args) {
    PyObject *roots, *suffixes;
    const char *chart_file;
    int max_depth;
    Py_ssize_t max_file, limit;
    if (!PyArg_ParseTuple(args, "OOsinn", &roots, &suffixes, &chart_file, &max_depth, &max_file, &limit)) return NULL;
    if (k8sm_unbound()) return NULL;
    finish(1);
    drop();
    P.roots = strings(roots, &P.nroots, 1);
    if (!P.roots) return NULL;
    P.suffixes = strings(suffixes, &P.nsuffixes, 0);
    P.chart_file = strdup(chart_file);
    if (!P.suffixes || !P.chart_file) {
        drop();
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    P.max_depth = max_depth;
    P.max_file = (size_t)max_file;
    P.limit = (size_t)limit;
    if (pthread_create(&P.thread, NULL, run, NULL) != 0) {
        drop();
        Py_RETURN_FALSE;
    }
    P.running = 1;
    Py_RETURN_TRUE;
}

PyObject *k8sm_prefetch_take(PyObject *self, PyObject *args) {
    int hurry = 1;
    if (!PyArg_ParseTuple(args, "|p", &hurry)) return NULL;
    finish(hurry);
    if (P.over || !P.verdicts) { /* past the limit (or out of memory): nothing is kept */
        drop();
        Py_RETURN_NONE;
    }
    PyObject *paths = PyList_New((Py_ssize_t)P.n), *raws = PyList_New((Py_ssize_t)P.n);
    PyObject *verdicts = PyByteArray_FromStringAndSize((const char *)P.verdicts, (Py_ssize_t)P.n);
    if (!paths || !raws || !verdicts) goto fail;
    for (size_t i = 0; i < P.n; i++) {
        PyObject *path = PyUnicode_DecodeFSDefault(P.got[i].path);
        PyObject *raw = PyBytes_FromStringAndSize(P.got[i].data, (Py_ssize_t)P.got[i].size);
        if (!path || !raw) {
            Py_XDECREF(path);
            Py_XDECREF(raw);
            goto fail;
        }
        PyList_SET_ITEM(paths, (Py_ssize_t)i, path);
        PyList_SET_ITEM(raws, (Py_ssize_t)i, raw);
    }
    drop();
    return Py_BuildValue("(NNN)", paths, raws, verdicts);
fail:
    Py_XDECREF(paths);
    Py_XDECREF(raws);
    Py_XDECREF(verdicts);
    drop();
    return NULL;
}

#else /* no threads of this kind: the run reads its files itself */

PyObject *k8sm_prefetch_start(PyObject *self, PyObject *args) { Py_RETURN_FALSE; }
PyObject *k8sm_prefetch_take(PyObject *self, PyObject *args) { Py_RETURN_NONE; }

#endif
