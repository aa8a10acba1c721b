/* What _fastbuild.c and _prefetch.c share: one extension module, two jobs. */
#ifndef K8SM_PREFETCH_H
#define K8SM_PREFETCH_H

#include <Python.h>

/* _fastbuild.c: whether libyaml is not bound yet (then a RuntimeError is set), and whether it
 * reads the UTF-8 ``input`` whole (callable without the GIL). */
int k8sm_unbound(void);
int k8sm_parses(const char *input, Py_ssize_t size);

/* _prefetch.c: the module functions ``prefetch_start`` and ``prefetch_take``. */
PyObject *k8sm_prefetch_start(PyObject *self, PyObject *args);
PyObject *k8sm_prefetch_take(PyObject *self, PyObject *args);

#endif
