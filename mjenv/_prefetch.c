/* mjenv._prefetch: ask the CPU to load a game's state before the batch steps it.

   A batch of a thousand games holds about 47 MB of state, more than the last-level cache, so
   every game's lists and records have left the caches by its next turn. The step then reads
   them one pointer after another, and each read waits for memory in turn (callgrind: about 150
   last-level misses a decision at N = 1,024). The batch knows which game comes next, and each
   game can name the objects that hold its state (GameSlot.state_objects), so while one game
   steps, the loads of a game a few places on are already in flight, side by side.

   ``prefetch(objects)`` issues a prefetch for every cache line of each object's own memory
   (its fixed part and, for a bytes or a tuple, its items; up to MAX_OBJECT bytes), the tail of
   a list's item array (where a log grows; a list of 34 counts fits whole) and a bytearray's
   buffer. It reads the objects' types and sizes and changes nothing (not even a reference
   count): it only brings memory into the caches earlier. ``prefetch_items(lists)`` does the
   same for the items of each list (state that changes objects from step to step, which a game
   cannot name once: an encoder's memo blocks). The plain-Python fallbacks
   (mjenv.vector.prefetch) do nothing. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define LINE 64
#define MAX_OBJECT 512  /* an object's own memory: a compiled class's fields, a tuple's items */
#define MAX_ITEMS 384   /* a list's item array, from its end: 48 pointers */
#define MAX_BUFFER 256  /* a bytearray's buffer */

/* Every cache line of [start, start + size), size capped at cap. */
static inline void fetch_range(const char *start, Py_ssize_t size, Py_ssize_t cap) {
    if (size > cap) size = cap;
    if (size <= 0) return;
    uintptr_t line = (uintptr_t)start & ~(uintptr_t)(LINE - 1);
    uintptr_t last = ((uintptr_t)start + (uintptr_t)size - 1) & ~(uintptr_t)(LINE - 1);
    for (; line <= last; line += LINE) __builtin_prefetch((const void *)line, 1, 3);
}

/* Every line of each of a list's objects (see the file's comment); the list checked. */
static void fetch_objects(PyObject *objects) {
    Py_ssize_t count = PyList_GET_SIZE(objects);
    PyObject **items = ((PyListObject *)objects)->ob_item;
    /* first every object's first line, which needs nothing read: the loads go out together */
    for (Py_ssize_t i = 0; i < count; i++) __builtin_prefetch(items[i], 1, 3);
    /* then what the type tells: the rest of the object, a list's items, a bytearray's buffer */
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *obj = items[i];
        PyTypeObject *type = Py_TYPE(obj);
        Py_ssize_t size = type->tp_basicsize;
        if (type->tp_itemsize != 0) {  /* variable size (bytes, tuple): the items are inline */
            Py_ssize_t n = Py_SIZE(obj);
            size += type->tp_itemsize * (n < 0 ? -n : n);
        }
        fetch_range((const char *)obj, size, MAX_OBJECT);
        if (type == &PyList_Type) {
            Py_ssize_t bytes = PyList_GET_SIZE(obj) * (Py_ssize_t)sizeof(PyObject *);
            Py_ssize_t skip = bytes > MAX_ITEMS ? bytes - MAX_ITEMS : 0;
            fetch_range((const char *)(((PyListObject *)obj)->ob_item) + skip, bytes - skip,
                        MAX_ITEMS);
        } else if (type == &PyByteArray_Type) {
            fetch_range(PyByteArray_AS_STRING(obj), PyByteArray_GET_SIZE(obj), MAX_BUFFER);
        }
    }
}

static PyObject *prefetch(PyObject *Py_UNUSED(module), PyObject *objects) {
    if (!PyList_Check(objects)) {
        PyErr_SetString(PyExc_TypeError, "prefetch() takes a list of objects");
        return NULL;
    }
    fetch_objects(objects);
    Py_RETURN_NONE;
}

/* prefetch() of the items of each list in ``lists``: one level further than prefetch(), for
   lists whose items change from step to step (an encoder's memo blocks). Reading the lists'
   item pointers waits for memory unless the lists themselves were prefetched earlier, so the
   batch calls it for a game whose working set it prefetched a game before. */
static PyObject *prefetch_items(PyObject *Py_UNUSED(module), PyObject *lists) {
    if (!PyList_Check(lists)) {
        PyErr_SetString(PyExc_TypeError, "prefetch_items() takes a list of lists");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(lists);
    for (Py_ssize_t i = 0; i < count; i++) {
        if (!PyList_Check(PyList_GET_ITEM(lists, i))) {
            PyErr_SetString(PyExc_TypeError, "prefetch_items() takes a list of lists");
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < count; i++) fetch_objects(PyList_GET_ITEM(lists, i));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"prefetch", prefetch, METH_O,
     "prefetch(objects: list) -> None\n\nLoad the objects' memory into the caches ahead of "
     "use (a hint to the CPU: nothing is read or changed)."},
    {"prefetch_items", prefetch_items, METH_O,
     "prefetch_items(lists: list[list]) -> None\n\nprefetch() of each list's items."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "mjenv._prefetch",
    "Prefetching a game's state before a batch steps it (see mjenv.vector.prefetch).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__prefetch(void) { return PyModule_Create(&module); }
