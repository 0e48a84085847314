class WorkerWrap:
    def init_process_group(self, master_address, master_port, rank_offset, world_size, group_name):
        pass
