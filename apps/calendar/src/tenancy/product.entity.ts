import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A source product (CRM, lending, ...) that reports events. Its id is the `ProductId` header. */
@Entity({ name: 'products' })
export class Product {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
