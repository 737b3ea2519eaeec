/*
 * A thin JNI binding over the MPI C API for org.datampi.transport.Mpi.
 *
 * One source for Open MPI and MPICH: everything that differs between implementations (constants, the width of
 * MPI_Request) stays on this side. Java holds a request as a jlong, which is wide enough for both a pointer
 * (Open MPI) and an int handle (MPICH). Buffers are direct ByteBuffers, passed by address: no copies.
 * Every MPI call runs with MPI_ERRORS_RETURN on MPI_COMM_WORLD and a failure becomes an MpiException.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static jclass mpiExceptionClass;

static void throwMpi(JNIEnv *env, const char *call, int rc) {
    char text[MPI_MAX_ERROR_STRING + 128];
    char reason[MPI_MAX_ERROR_STRING];
    int reasonLength = 0;
    if (MPI_Error_string(rc, reason, &reasonLength) != MPI_SUCCESS) {
        snprintf(reason, sizeof reason, "unknown MPI error");
    }
    snprintf(text, sizeof text, "%s failed (MPI error %d): %s", call, rc, reason);
    (*env)->ThrowNew(env, mpiExceptionClass, text);
}

static void throwUsage(JNIEnv *env, const char *message) {
    (*env)->ThrowNew(env, mpiExceptionClass, message);
}

/* Resolves a direct buffer's address at offset, or throws. */
static void *bufferAt(JNIEnv *env, jobject buffer, jint offset, jint length) {
    char *base = (char *) (*env)->GetDirectBufferAddress(env, buffer);
    if (base == NULL) {
        throwUsage(env, "MPI buffers must be direct ByteBuffers");
        return NULL;
    }
    jlong capacity = (*env)->GetDirectBufferCapacity(env, buffer);
    if (offset < 0 || length < 0 || (jlong) offset + length > capacity) {
        throwUsage(env, "MPI buffer range is outside the ByteBuffer");
        return NULL;
    }
    return base + offset;
}

static MPI_Request toRequest(jlong handle) { return (MPI_Request) (intptr_t) handle; }
static jlong fromRequest(MPI_Request request) { return (jlong) (intptr_t) request; }

/*
 * Open MPI loads its components with dlopen; they resolve libmpi's symbols through the global namespace, which the
 * JVM's System.load (RTLD_LOCAL) does not provide. Re-opening libmpi with RTLD_GLOBAL|RTLD_NOLOAD promotes the
 * already-loaded library, whatever its file name, without loading a second copy.
 */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_8) != JNI_OK) {
        return JNI_ERR;
    }
    jclass local = (*env)->FindClass(env, "org/datampi/transport/MpiException");
    if (local == NULL) {
        return JNI_ERR;
    }
    mpiExceptionClass = (jclass) (*env)->NewGlobalRef(env, local);
    Dl_info info;
    if (dladdr((void *) &MPI_Init_thread, &info) != 0 && info.dli_fname != NULL) {
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    }
    return JNI_VERSION_1_8;
}

JNIEXPORT jintArray JNICALL Java_org_datampi_transport_Mpi_nativeConstants(JNIEnv *env, jclass cls) {
    jint values[] = {MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                     MPI_THREAD_MULTIPLE};
    jintArray result = (*env)->NewIntArray(env, 6);
    if (result != NULL) {
        (*env)->SetIntArrayRegion(env, result, 0, 6, values);
    }
    return result;
}

JNIEXPORT jint JNICALL Java_org_datampi_transport_Mpi_nativeInitThread(JNIEnv *env, jclass cls, jint required) {
    int provided = 0;
    int rc = MPI_Init_thread(NULL, NULL, required, &provided);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, "MPI_Init_thread", rc);
        return -1;
    }
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, "MPI_Comm_set_errhandler", rc);
    }
    return provided;
}

JNIEXPORT jint JNICALL Java_org_datampi_transport_Mpi_nativeRank(JNIEnv *env, jclass cls) {
    int rank = -1;
    int rc = MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rc != MPI_SUCCESS) throwMpi(env, "MPI_Comm_rank", rc);
    return rank;
}

JNIEXPORT jint JNICALL Java_org_datampi_transport_Mpi_nativeSize(JNIEnv *env, jclass cls) {
    int size = -1;
    int rc = MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rc != MPI_SUCCESS) throwMpi(env, "MPI_Comm_size", rc);
    return size;
}

JNIEXPORT jstring JNICALL Java_org_datampi_transport_Mpi_nativeLibraryVersion(JNIEnv *env, jclass cls) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    int rc = MPI_Get_library_version(version, &length);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, "MPI_Get_library_version", rc);
        return NULL;
    }
    return (*env)->NewStringUTF(env, version);
}

JNIEXPORT jlong JNICALL Java_org_datampi_transport_Mpi_nativeIsend(JNIEnv *env, jclass cls, jobject buffer,
                                                                   jint offset, jint length, jint dest, jint tag) {
    void *address = bufferAt(env, buffer, offset, length);
    if (address == NULL) return 0;
    MPI_Request request;
    int rc = MPI_Isend(address, length, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &request);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, "MPI_Isend", rc);
        return 0;
    }
    return fromRequest(request);
}

JNIEXPORT jlong JNICALL Java_org_datampi_transport_Mpi_nativeIrecv(JNIEnv *env, jclass cls, jobject buffer,
                                                                   jint offset, jint length, jint source, jint tag) {
    void *address = bufferAt(env, buffer, offset, length);
    if (address == NULL) return 0;
    MPI_Request request;
    int rc = MPI_Irecv(address, length, MPI_BYTE, source, tag, MPI_COMM_WORLD, &request);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, "MPI_Irecv", rc);
        return 0;
    }
    return fromRequest(request);
}

/* A non-blocking broadcast of buffer[offset, offset + length) from root to every rank of MPI_COMM_WORLD. */
JNIEXPORT jlong JNICALL Java_org_datampi_transport_Mpi_nativeIbcast(JNIEnv *env, jclass cls, jobject buffer,
                                                                    jint offset, jint length, jint root) {
    void *address = bufferAt(env, buffer, offset, length);
    if (address == NULL) return 0;
    MPI_Request request;
    int rc = MPI_Ibcast(address, length, MPI_BYTE, root, MPI_COMM_WORLD, &request);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, "MPI_Ibcast", rc);
        return 0;
    }
    return fromRequest(request);
}

/* Returns true when the request completed (MPI has then freed it). */
JNIEXPORT jboolean JNICALL Java_org_datampi_transport_Mpi_nativeTest(JNIEnv *env, jclass cls, jlong handle) {
    MPI_Request request = toRequest(handle);
    int flag = 0;
    MPI_Status status;
    int rc = MPI_Test(&request, &flag, &status);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, "MPI_Test", rc);
        return JNI_FALSE;
    }
    return flag ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT void JNICALL Java_org_datampi_transport_Mpi_nativeWait(JNIEnv *env, jclass cls, jlong handle) {
    MPI_Request request = toRequest(handle);
    MPI_Status status;
    int rc = MPI_Wait(&request, &status);
    if (rc != MPI_SUCCESS) throwMpi(env, "MPI_Wait", rc);
}

/*
 * Waits for (block != 0) or tests for one of count requests; returns its index or -1 when none completed.
 * The completed entry of handles is set to the implementation's MPI_REQUEST_NULL.
 */
static jint anyOf(JNIEnv *env, jlongArray handles, jint count, int block) {
    if (count < 0 || count > (*env)->GetArrayLength(env, handles)) {
        throwUsage(env, "request count is outside the handle array");
        return -1;
    }
    if (count == 0) return -1;
    MPI_Request requests[count];
    jlong values[count];
    (*env)->GetLongArrayRegion(env, handles, 0, count, values);
    for (int i = 0; i < count; i++) requests[i] = toRequest(values[i]);
    int index = MPI_UNDEFINED;
    int flag = 0;
    MPI_Status status;
    int rc = block ? MPI_Waitany(count, requests, &index, &status)
                   : MPI_Testany(count, requests, &index, &flag, &status);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, block ? "MPI_Waitany" : "MPI_Testany", rc);
        return -1;
    }
    if (index == MPI_UNDEFINED || (!block && !flag)) return -1;
    jlong nullHandle = fromRequest(requests[index]);
    (*env)->SetLongArrayRegion(env, handles, index, 1, &nullHandle);
    return index;
}

JNIEXPORT jint JNICALL Java_org_datampi_transport_Mpi_nativeWaitAny(JNIEnv *env, jclass cls, jlongArray handles,
                                                                    jint count) {
    return anyOf(env, handles, count, 1);
}

JNIEXPORT jint JNICALL Java_org_datampi_transport_Mpi_nativeTestAny(JNIEnv *env, jclass cls, jlongArray handles,
                                                                    jint count) {
    return anyOf(env, handles, count, 0);
}

static void writeStatus(JNIEnv *env, jintArray out, MPI_Status *status) {
    int count = 0;
    MPI_Get_count(status, MPI_BYTE, &count);
    jint values[3] = {status->MPI_SOURCE, status->MPI_TAG, count};
    (*env)->SetIntArrayRegion(env, out, 0, 3, values);
}

/* Non-blocking probe; on a match fills out = {source, tag, byte count} and returns true. */
JNIEXPORT jboolean JNICALL Java_org_datampi_transport_Mpi_nativeIprobe(JNIEnv *env, jclass cls, jint source,
                                                                       jint tag, jintArray out) {
    int flag = 0;
    MPI_Status status;
    int rc = MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &status);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, "MPI_Iprobe", rc);
        return JNI_FALSE;
    }
    if (!flag) return JNI_FALSE;
    writeStatus(env, out, &status);
    return JNI_TRUE;
}

JNIEXPORT void JNICALL Java_org_datampi_transport_Mpi_nativeProbe(JNIEnv *env, jclass cls, jint source, jint tag,
                                                                  jintArray out) {
    MPI_Status status;
    int rc = MPI_Probe(source, tag, MPI_COMM_WORLD, &status);
    if (rc != MPI_SUCCESS) {
        throwMpi(env, "MPI_Probe", rc);
        return;
    }
    writeStatus(env, out, &status);
}

JNIEXPORT void JNICALL Java_org_datampi_transport_Mpi_nativeBarrier(JNIEnv *env, jclass cls) {
    int rc = MPI_Barrier(MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) throwMpi(env, "MPI_Barrier", rc);
}

JNIEXPORT void JNICALL Java_org_datampi_transport_Mpi_nativeAbort(JNIEnv *env, jclass cls, jint code) {
    fflush(stdout);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, code);
}

JNIEXPORT void JNICALL Java_org_datampi_transport_Mpi_nativeFinalize(JNIEnv *env, jclass cls) {
    int rc = MPI_Finalize();
    if (rc != MPI_SUCCESS) throwMpi(env, "MPI_Finalize", rc);
}
