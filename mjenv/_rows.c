/* mjenv._rows: a batch's integer counts into its float32 observation rows, in one pass.

   An encoder with counts (mjenv-v1, mjenv-v1+shanten) makes every cell an integer count
   times a fixed scale, or over a fixed divisor (SeatEncoder.count_scale, count_divisor). The
   batch stages its games' counts as bytes and turns them into the float32 rows a block of games
   at a time (mjenv.vector.scaling). Done with numpy that is three passes over the rows (a cast,
   a multiply and a divide in place), and at N = 1,024 the rows are 12 MB a step, more than the
   caches: each pass reads them back from memory, and every first write reads its line first.

   ``scale_counts(counts, scale, divisor, out)`` makes each cell once: the count cast to
   float32, times its scale (or over its divisor: IEEE single precision, the values numpy's
   float32 multiply and divide give), written with streaming stores where the processor has
   them (SSE2: every x86-64), which go to memory without reading the line first and without
   evicting the games' state from the caches. Plain stores elsewhere. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* out[k] = counts[k] * factor[k] (or / factor[k] where divide), k < n */
static void write_part(const uint8_t *counts, const float *factor, float *out, Py_ssize_t n,
                       int divide) {
    Py_ssize_t k = 0;
#if defined(__SSE2__)
    while (k < n && ((uintptr_t)(out + k) & 15) != 0) {  /* to a 16-byte boundary */
        out[k] = divide ? (float)counts[k] / factor[k] : (float)counts[k] * factor[k];
        k++;
    }
    const __m128i zero = _mm_setzero_si128();
    for (; k + 4 <= n; k += 4) {
        int32_t four;
        memcpy(&four, counts + k, 4);
        __m128i wide = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(four), zero), zero);
        __m128 value = _mm_cvtepi32_ps(wide);
        __m128 f = _mm_loadu_ps(factor + k);
        _mm_stream_ps(out + k, divide ? _mm_div_ps(value, f) : _mm_mul_ps(value, f));
    }
#endif
    for (; k < n; k++)
        out[k] = divide ? (float)counts[k] / factor[k] : (float)counts[k] * factor[k];
}

static int get(PyObject *obj, Py_buffer *view, int flags, const char *what) {
    if (PyObject_GetBuffer(obj, view, flags | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Format(PyExc_ValueError, "scale_counts: %s must be a C-contiguous array", what);
        return -1;
    }
    return 0;
}

static PyObject *scale_counts(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "scale_counts(counts, scale, divisor, out)");
        return NULL;
    }
    Py_buffer counts, scale, divisor = {0}, out;
    int have_divisor = args[2] != Py_None;
    if (get(args[0], &counts, PyBUF_SIMPLE, "counts") < 0) return NULL;
    if (get(args[1], &scale, PyBUF_SIMPLE, "scale") < 0) goto release_counts;
    if (have_divisor && get(args[2], &divisor, PyBUF_SIMPLE, "divisor") < 0) goto release_scale;
    if (get(args[3], &out, PyBUF_WRITABLE, "out") < 0) goto release_divisor;

    Py_ssize_t scaled = scale.len / 4, divided = have_divisor ? divisor.len / 4 : 0;
    Py_ssize_t cells = scaled + divided;
    if (strcmp(counts.format, "B") != 0 || strcmp(scale.format, "f") != 0
            || (have_divisor && strcmp(divisor.format, "f") != 0) || strcmp(out.format, "f") != 0
            || cells == 0 || counts.len % cells != 0 || out.len != counts.len * 4) {
        PyErr_SetString(PyExc_ValueError,
                        "scale_counts: uint8 counts (n, cells), float32 scale and divisor "
                        "(their cells together), float32 out (n, cells)");
        goto release_out;
    }
    Py_ssize_t rows = counts.len / cells;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < rows; r++) {
        const uint8_t *c = (const uint8_t *)counts.buf + r * cells;
        float *o = (float *)out.buf + r * cells;
        write_part(c, (const float *)scale.buf, o, scaled, 0);
        if (divided) write_part(c + scaled, (const float *)divisor.buf, o + scaled, divided, 1);
    }
#if defined(__SSE2__)
    _mm_sfence();  /* the streaming stores are visible before the rows are read */
#endif
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&out);
    if (have_divisor) PyBuffer_Release(&divisor);
    PyBuffer_Release(&scale);
    PyBuffer_Release(&counts);
    Py_RETURN_NONE;

release_out:
    PyBuffer_Release(&out);
release_divisor:
    if (have_divisor) PyBuffer_Release(&divisor);
release_scale:
    PyBuffer_Release(&scale);
release_counts:
    PyBuffer_Release(&counts);
    return NULL;
}

static PyMethodDef methods[] = {
    {"scale_counts", (PyCFunction)(void (*)(void))scale_counts, METH_FASTCALL,
     "scale_counts(counts, scale, divisor, out) -> None\n\nout = counts * scale over the "
     "first cells of each row, counts / divisor over the rest (divisor None: none), as "
     "float32."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "mjenv._rows",
    "A batch's counts into its float32 rows in one pass (see mjenv.vector.scaling).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__rows(void) { return PyModule_Create(&module); }
