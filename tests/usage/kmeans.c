/* One step of k-means (Lloyd's algorithm) on three blobs, written as a torch user writes it:

     torch.set_printoptions(precision=8)
     torch.manual_seed(0)
     centers = torch.tensor([[0., 0.], [2., 2.], [-2., 2.]])
     x = (torch.randn(3, 10, 2) + centers.unsqueeze(1)).reshape(30, 2)
     c = x.view(3, 10, 2)[:, 0]                          # the first point of each blob
     d = ((x.unsqueeze(1) - c.unsqueeze(0)) ** 2).sum(2)  # squared distances, (30, 3)
     labels = d.argmin(1)
     onehot = (labels.unsqueeze(1) == torch.arange(3)).float()
     counts = onehot.sum(0)
     centroids = (onehot.t().unsqueeze(2) * x.unsqueeze(0)).sum(1) / counts.unsqueeze(1)
     inertia = d.amin(1).sum() */
#include <ctorch.h>
#include <stdio.h>

static void show(const char *name, const ct_tensor *t) {
  printf("%s =\n", name);
  ct_print(t);
}

int main(void) {
  ct_set_printoptions(&(ct_print_options){.precision = CT_PRINT_SET(8)});
  ct_manual_seed(0);
  ct_scope_begin(); /* owns every tensor below */
  const double centers_data[] = {0, 0, 2, 2, -2, 2};
  ct_tensor *centers = ct_tensor_from_data(centers_data, CT_FLOAT64, CT_SHAPE(3, 2),
                                           &(ct_tensor_opts){.dtype = CT_FLOAT32});
  ct_tensor *x = ct_reshape(ct_add(ct_randn(CT_SHAPE(3, 10, 2), NULL), ct_unsqueeze(centers, 1), NULL),
                            CT_SHAPE(30, 2));
  ct_tensor *c = ct_select(ct_view(x, CT_SHAPE(3, 10, 2)), 1, 0);
  ct_tensor *diff = ct_sub(ct_unsqueeze(x, 1), ct_unsqueeze(c, 0), NULL);
  ct_tensor *d = ct_sum(ct_pow(diff, ct_wrapped_scalar(CT_INT(2))), &(ct_reduce_opts){.dims = CT_DIMS(2)});
  ct_tensor *labels = ct_argmin(d, &(ct_reduce_opts){.dims = CT_DIMS(1)});
  ct_tensor *onehot =
      ct_float(ct_eq(ct_unsqueeze(labels, 1), ct_arange(CT_INT(0), CT_INT(3), CT_INT(1), NULL)));
  ct_tensor *counts = ct_sum(onehot, &(ct_reduce_opts){.dims = CT_DIMS(0)});
  ct_tensor *sums = ct_sum(ct_mul(ct_unsqueeze(ct_t(onehot), 2), ct_unsqueeze(x, 0)),
                           &(ct_reduce_opts){.dims = CT_DIMS(1)});
  ct_tensor *centroids = ct_div(sums, ct_unsqueeze(counts, 1), NULL);
  ct_tensor *inertia = ct_sum(ct_amin(d, &(ct_reduce_opts){.dims = CT_DIMS(1)}), NULL);
  if (!centroids || !inertia) { /* a chain reports its first failure */
    fprintf(stderr, "kmeans: %s: %s\n", ct_error_kind_name(ct_last_error()), ct_last_error_message());
    ct_scope_end();
    return 1;
  }
  show("labels", labels);
  show("counts", counts);
  show("centroids", centroids);
  show("inertia", inertia);
  ct_scope_end();
  return 0;
}
