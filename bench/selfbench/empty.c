/* The baseline for process-level figures (tools/selfbench.py): an empty C
 * program, to subtract process creation, dynamic loading and exit from the
 * start-up time and the peak RSS of the runners. */
int main(void) { return 0; }
