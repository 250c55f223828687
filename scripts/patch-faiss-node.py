"""Patch faiss-node 0.5.x's binding source (src/faiss.cc) for dxgraph's builds from source.

1. add / train / search also accept a Float32Array and read it in place: the stock binding
   reads a JS Array element by element through N-API (~0.5 us per float), which made
   adding 100k 512-d vectors cost ~30 s before FAISS did any work (docs/faiss-node.md).
2. search frees its query buffer (the stock binding leaks it: 2 KB per 512-d query).
Plain arrays keep working exactly as before. Usage: patch-faiss-node.py FILE (in place).
"""
import re
import sys

path = sys.argv[1]
src = open(path).read()

HELPER = '''
// dxgraph patch: a Float32Array argument is read in place (no per-element N-API calls).
static bool dx_float32(const Napi::Value &v, const float *&data, size_t &length)
{
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_float32_array)
    return false;
  Napi::Float32Array f = v.As<Napi::Float32Array>();
  data = f.Data();
  length = f.ElementLength();
  return true;
}

template <class T, typename Y>
class IndexBase'''
assert src.count('template <class T, typename Y>\nclass IndexBase') == 1, 'IndexBase template not found'
src = src.replace('\ntemplate <class T, typename Y>\nclass IndexBase', HELPER, 1)


def fast_path(fn: str, call: str) -> None:
    global src
    head = f'  Napi::Value {fn}(const Napi::CallbackInfo &info)\n  {{\n    Napi::Env env = info.Env();\n'
    assert src.count(head) == 1, f'{fn}() not found'
    body = f'''    if (info.Length() == 1)
    {{
      const float *dx_data;
      size_t dx_len;
      if (dx_float32(info[0], dx_data, dx_len))
      {{
        if (dx_len % index_->d != 0)
        {{
          Napi::Error::New(env, "Invalid the given array length.").ThrowAsJavaScriptException();
          return env.Undefined();
        }}
        index_->{call}(dx_len / index_->d, dx_data);
        return env.Undefined();
      }}
    }}
'''
    src = src.replace(head, head + body, 1)


fast_path('add', 'add')
fast_path('train', 'train')

# search: convert a Float32Array into the same xq buffer the Array path fills, then free it.
arr_line = '    Napi::Array arr = info[0].As<Napi::Array>();\n    size_t length = arr.Length();\n'
m = re.search(r'  Napi::Value search\(const Napi::CallbackInfo &info\)\n  \{\n(.*?)\n  \}\n', src, re.S)
assert m, 'search() not found'
body = m.group(1)
check = '    if (!info[0].IsArray())\n'
assert body.count(check) == 1 and body.count(arr_line) == 1, 'search() argument handling changed'
loop = re.search(r'    float \*xq = new float\[length\];\n    for \(size_t i = 0; i < length; i\+\+\)\n    \{.*?\n    \}\n', body, re.S)
assert loop, 'search() conversion loop not found'
new_body = body.replace(check, '    const float *dx_data = nullptr;\n    size_t dx_len = 0;\n    const bool dx_typed = dx_float32(info[0], dx_data, dx_len);\n    if (!dx_typed && !info[0].IsArray())\n', 1)
new_body = new_body.replace(arr_line, '    Napi::Array arr = dx_typed ? Napi::Array::New(env) : info[0].As<Napi::Array>();\n    size_t length = dx_typed ? dx_len : arr.Length();\n', 1)
conv = loop.group(0)
new_conv = conv.replace('    for (size_t i = 0; i < length; i++)\n', '    if (dx_typed)\n      std::copy(dx_data, dx_data + length, xq);\n    else for (size_t i = 0; i < length; i++)\n', 1)
new_conv = new_conv.replace('        return env.Undefined();', '        delete[] xq;\n        return env.Undefined();', 1)
new_body = new_body.replace(conv, new_conv, 1)
assert new_body.count('    index_->search(nq, xq, k, D, I);\n') == 1, 'search() call changed'
new_body = new_body.replace('    index_->search(nq, xq, k, D, I);\n', '    index_->search(nq, xq, k, D, I);\n    delete[] xq;\n', 1)
src = src.replace(body, new_body, 1)
if '#include <algorithm>' not in src:
    src = '#include <algorithm>\n' + src
open(path, 'w').write(src)
